/** The one polling helper of the tests: asks again until something has happened. */

export interface WaitForOptions {
  /** How long to keep asking (default 15 s). */
  timeoutMs?: number;
  /** What was last seen, added to the error when time runs out. */
  describe?: () => string;
}

/**
 * Calls `probe` every 50 ms until it answers something other than `undefined` or `false`, and
 * resolves with that answer; fails after `timeoutMs` with "timed out waiting for <what>".
 *
 * @example
 * const record = await waitFor(() => store.get(id), `row ${id}`);
 * await waitFor(async () => (await store.list({})).length === 2, 'two rows');
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: WaitForOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const seen = options.describe ? ` (${options.describe()})` : '';
      throw new Error(`timed out waiting for ${what} after ${timeoutMs} ms${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
