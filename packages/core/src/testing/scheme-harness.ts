/**
 * An auth scheme plugin on hooks of its own, asked the way the receiver asks it: for unit tests
 * of a scheme's headers and verdicts without a server.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { authenticateRequest, loadedSchemes, type SchemeVerdict } from '../auth-schemes.js';
import { parseConfig } from '../config/load.js';
import { createHooks } from '../hooks.js';
import { silentLogger } from '../logger.js';
import type { GatewayPlugin } from '../plugin.js';
import { setupPlugin } from '../plugin-loader.js';

/** Asks the plugin's schemes about one request, as the receiver does. */
export type SchemeProbe = (request: {
  headers: IncomingHttpHeaders;
  body: Buffer | string;
  secrets: readonly string[];
  route?: string;
}) => Promise<SchemeVerdict | undefined>;

/**
 * Sets up `plugin` (with `options`) and gives a probe of its schemes.
 *
 * @example
 * const probe = await schemeProbe(linearPlugin);
 * expect((await probe({ headers, body, secrets: ['s'] }))?.ok).toBe(true);
 */
export async function schemeProbe(
  plugin: GatewayPlugin<unknown>,
  options?: unknown,
): Promise<SchemeProbe> {
  const hooks = createHooks();
  await setupPlugin(
    { plugin, options },
    {
      hooks,
      log: silentLogger(),
      config: parseConfig({}, {}, [plugin]),
      home: '/tmp/webhook-gateway-scheme-probe',
      serving: false,
    },
  );
  const schemes = loadedSchemes([plugin], hooks);
  return (request) =>
    authenticateRequest(hooks, schemes, {
      route: request.route ?? 'hooks',
      headers: request.headers,
      rawBody: typeof request.body === 'string' ? Buffer.from(request.body) : request.body,
      secrets: request.secrets,
    });
}
