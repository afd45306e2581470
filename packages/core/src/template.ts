/**
 * The prompt template of `docs/contract.md#the-prompt-template`: `{a.b.c}` is replaced by the
 * payload value at that path. Nothing else is syntax, and substituted text is never scanned again.
 *
 * `{_gateway.…}` is reserved: it is never read from the payload, only from the values the
 * gateway hands the renderer (`{_gateway.route}`, `{_gateway.delivery_id}`, …).
 */

/** A placeholder: braces around a dotted path of `[A-Za-z0-9_.-]+`. */
const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

/** A JSON object as it arrives in a payload. */
export type JsonObject = { [key: string]: unknown };

const MISSING = Symbol('missing');

/** The reserved placeholder prefix whose values come from the gateway, not the payload. */
export const GATEWAY_PREFIX = '_gateway.';

/**
 * Values for `{_gateway.<key>}` placeholders, keyed without the prefix (`route`, `command.name`).
 * A function is called only when a template uses its key (for values costly to make, as `raw`).
 */
export type GatewayValues = Readonly<Record<string, string | (() => string)>>;

/** Hermes' name for `{_gateway.raw}`: the whole payload. */
export const RAW_ALIAS = '__raw__';

/** How many characters of the payload's JSON `{_gateway.raw}` gives at most. */
export const RAW_PAYLOAD_LIMIT = 50_000;

/**
 * The whole payload as 2-space JSON, for `{_gateway.raw}`: cut after `RAW_PAYLOAD_LIMIT`
 * characters, with a last line saying how much was left out.
 */
export function rawPayloadText(payload: unknown): string {
  const text = safeStringify(payload, 2);
  if (text.length <= RAW_PAYLOAD_LIMIT) return text;
  return `${text.slice(0, RAW_PAYLOAD_LIMIT)}\n… [cut: ${text.length - RAW_PAYLOAD_LIMIT} more characters]`;
}

/**
 * Looks up a dotted path in a payload. Only own properties and array indices are followed, so a
 * path can never reach outside the payload (no `__proto__`, `constructor`, array `length`).
 */
export function lookupPath(payload: unknown, path: string): unknown {
  let current: unknown = payload;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return MISSING;
    if (Array.isArray(current) && !/^(0|[1-9][0-9]*)$/.test(segment)) return MISSING;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return MISSING;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** True when `lookupPath` found nothing at the path. */
export function isMissing(value: unknown): boolean {
  return value === MISSING;
}

/** Strings as they are; numbers, booleans and null as JSON; objects and arrays as 2-space JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'null';
  if (typeof value === 'object' && value !== null) return safeStringify(value, 2);
  return safeStringify(value, 0);
}

/** JSON.stringify that never throws (a payload nested too deeply for the stack, a BigInt). */
export function safeStringify(value: unknown, indent: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? 'null';
  } catch (error) {
    return `[unprintable: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/**
 * Renders a template against a payload.
 *
 * @example renderTemplate('PR #{number}: {pull_request.title}', payload) // 'PR #42: Fix it'
 */
export function renderTemplate(
  template: string,
  payload: unknown,
  gateway: GatewayValues = {},
): string {
  // One pass of String.replace: the replacement text is never scanned for placeholders again.
  return template.replace(PLACEHOLDER, (whole, path: string) => {
    if (path.startsWith(GATEWAY_PREFIX) || path === RAW_ALIAS) {
      const key = path === RAW_ALIAS ? 'raw' : path.slice(GATEWAY_PREFIX.length);
      if (!Object.prototype.hasOwnProperty.call(gateway, key)) return whole;
      const value = gateway[key];
      return typeof value === 'function' ? value() : (value ?? whole);
    }
    const value = lookupPath(payload, path);
    return isMissing(value) ? whole : formatValue(value);
  });
}

/** The prompt a route without `prompt` gets: the event, the route and the payload as JSON. */
export function renderDefaultPrompt(route: string, event: string, payload: unknown): string {
  return [
    `Webhook event "${event}" received on route "${route}".`,
    '',
    'Payload:',
    '```json',
    safeStringify(payload, 2),
    '```',
  ].join('\n');
}

/** Renders every string value of `deliver_extra` against the payload; other values pass as they are. */
export function renderDeliverExtra(
  extra: Record<string, unknown>,
  payload: unknown,
  gateway: GatewayValues = {},
): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extra)) {
    rendered[key] = typeof value === 'string' ? renderTemplate(value, payload, gateway) : value;
  }
  return rendered;
}
