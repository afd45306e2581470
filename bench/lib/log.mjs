/** Progress goes to stderr, so stdout stays free for anything machine-readable. */

/** @param {string} message */
export function progress(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** @param {number} ms */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` every `everyMs` until it returns true or `timeoutMs` passes.
 * @param {() => boolean | Promise<boolean>} check
 * @param {number} timeoutMs
 * @param {number} [everyMs]
 * @returns {Promise<boolean>} whether it came true
 */
export async function pollUntil(check, timeoutMs, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return check();
}
