import { parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

const routes = (deliverExtra: Record<string, unknown>, deliver = 'forge_review') =>
  parseConfig(
    {
      platforms: {
        webhook: { extra: { routes: { reviews: { deliver, deliver_extra: deliverExtra } } } },
      },
    },
    {},
  );

describe('deliver_extra.check and .details in the config', () => {
  it('are refused when not a boolean, naming the key path', () => {
    expect(plugin.check?.(routes({ check: 'yes', details: 1 }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.reviews.deliver_extra.check',
        message: 'forge_review: must be true or false, not "yes"',
      },
      {
        path: 'platforms.webhook.extra.routes.reviews.deliver_extra.details',
        message: 'forge_review: must be true or false, not 1',
      },
    ]);
  });

  it('accept true and false, and leave other targets alone', () => {
    expect(plugin.check?.(routes({ check: true, details: false }))).toEqual([]);
    expect(plugin.check?.(routes({ check: 'yes' }, 'log'))).toEqual([]);
  });
});
