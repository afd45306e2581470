/** Reading how long a rate-limited service asks us to wait. */

/**
 * Milliseconds to wait from an HTTP `Retry-After` value: delay seconds (Discord sends decimals)
 * or an HTTP date. `undefined` when absent or unreadable.
 *
 * @example
 * parseRetryAfter('1.5'); // 1500
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  // An HTTP date names its day and month; this keeps `-1` from parsing as the year 1 BC.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Milliseconds from a `retry_after` given in seconds in a JSON body, when it is a sane number. */
export function retryAfterSecondsToMs(seconds: number | undefined): number | undefined {
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0
    ? Math.ceil(seconds * 1000)
    : undefined;
}
