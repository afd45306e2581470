/**
 * Which auth schemes decide a request: a route's `schemes`, else every loaded one, asked in order;
 * the first scheme that recognises the request decides it alone (no fall back to another).
 */
import type { AuthAccepted, AuthRequest, AuthVerdict, GatewayHooks } from './hooks.js';
import type { GatewayPlugin } from './plugin.js';
import type { JsonObject } from './template.js';

/** The schemes the plugins provide and tapped, in the order the plugins were set up. */
export function loadedSchemes(
  plugins: readonly Pick<GatewayPlugin<unknown>, 'provides'>[],
  hooks: GatewayHooks,
): string[] {
  const names = plugins.flatMap((plugin) => plugin.provides?.schemes ?? []);
  return [...new Set(names)].filter((name) => hooks.authenticate.get(name)?.isUsed());
}

/** A verdict with the scheme that gave it. */
export type SchemeVerdict = AuthVerdict & { scheme: string };

/**
 * Asks `schemes` in order; the first that answers decides. `undefined` when none recognised the
 * request (no signature or token header of any of them): the receiver refuses it.
 */
export async function authenticateRequest(
  hooks: GatewayHooks,
  schemes: readonly string[],
  request: AuthRequest,
): Promise<SchemeVerdict | undefined> {
  for (const scheme of schemes) {
    const hook = hooks.authenticate.get(scheme);
    if (!hook?.isUsed()) continue;
    const verdict = await hook.promise(request);
    if (verdict !== undefined) return { ...verdict, scheme };
  }
  return undefined;
}

/** The event type an accepted verdict names, read from the payload when the scheme says so. */
export function verdictEvent(verdict: AuthAccepted, payload: JsonObject): string | undefined {
  const event = typeof verdict.event === 'function' ? verdict.event(payload) : verdict.event;
  return event !== undefined && event !== '' ? event : undefined;
}
