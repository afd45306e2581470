/**
 * Which auth schemes decide a request: a route's `schemes`, else every loaded one, asked in order.
 * The first that accepts names the scheme, event and delivery id; but any loaded scheme whose
 * signature header is there and fails refuses the request, so a wrong signature is never
 * excused by another credential beside it (no downgrade between schemes). A bare credential that
 * does not match (`credentialOnly`) refuses only when nothing accepted.
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
 * Asks every one of `schemes`, then every other scheme in `alsoRefusing` (the loaded ones a
 * route did not list: they may only refuse). The first failed signature decides; else the first
 * of `schemes` that accepted; else the first refusal of a bare credential. `undefined` when none
 * recognised the request (no signature or token header of any of them): the receiver refuses it.
 */
export async function authenticateRequest(
  hooks: GatewayHooks,
  schemes: readonly string[],
  request: AuthRequest,
  alsoRefusing: readonly string[] = [],
): Promise<SchemeVerdict | undefined> {
  let accepted: SchemeVerdict | undefined;
  let credentialRefused: SchemeVerdict | undefined;
  const asked = [...new Set([...schemes, ...alsoRefusing])];
  for (const scheme of asked) {
    const hook = hooks.authenticate.get(scheme);
    if (!hook?.isUsed()) continue;
    const verdict = await hook.promise(request);
    if (verdict === undefined) continue;
    if (!verdict.ok && verdict.credentialOnly !== true) return { ...verdict, scheme };
    if (!verdict.ok) credentialRefused ??= { ...verdict, scheme };
    else if (accepted === undefined && schemes.includes(scheme)) accepted = { ...verdict, scheme };
  }
  return accepted ?? credentialRefused;
}

/** The event type an accepted verdict names, read from the payload when the scheme says so. */
export function verdictEvent(verdict: AuthAccepted, payload: JsonObject): string | undefined {
  const event = typeof verdict.event === 'function' ? verdict.event(payload) : verdict.event;
  return event !== undefined && event !== '' ? event : undefined;
}
