// An example third-party delivery target: a local plugin file with its own settings slice.
//
// config.yaml:
//   plugins: [./plugins/pager-target.mjs]
//   platforms:
//     pager: { url: https://pager.example/hooks/abc, severity: warning }
//   # a route: deliver: pager
//
// `platforms.pager` is validated at start with the rest of the config (a bad value names its key
// path) and shows up in `webhook-gateway config schema`, so editors complete it.
import { definePlugin, settingsIn } from '@webhook-gateway/core';
import { z } from 'zod';

const NAME = 'pager-target';

const pagerTarget = definePlugin({
  name: NAME,
  provides: { targets: ['pager'] },
  platforms: {
    pager: z.strictObject({
      /** Where pages are posted. */
      url: z.url(),
      severity: z.enum(['info', 'warning', 'critical']).default('info'),
      timeout_s: z.number().positive().default(10),
    }),
  },
  setup({ hooks }) {
    hooks.deliver.for('pager').tapPromise(NAME, async ({ answer, delivery, signal, config }) => {
      // Read from the attempt's config, so a reload of platforms.pager applies to the next page.
      const { url, severity, timeout_s } = settingsIn(pagerTarget, config).pager;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          severity,
          route: delivery.route,
          delivery_id: delivery.deliveryId,
          text: answer,
        }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeout_s * 1000)]),
      });
      // A failed page is retried by the gateway, with backoff, up to the route's max_attempts.
      if (!response.ok) throw new Error(`the pager answered ${response.status}`);
    });
  },
});

export default pagerTarget;
