/** Polls until `read` returns a value `done` accepts; fails after `timeoutMs` saying what it saw. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `${what} did not happen within ${timeoutMs} ms (last: ${JSON.stringify(value)})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
