/**
 * Runs the edits of one living comment in this process one after another: a queued review's
 * status line (read, then edit) must not land between a review's answer and the read it began
 * with, or it would put the old body back.
 */
const running = new Map<string, Promise<unknown>>();

/** Runs `work` once every earlier `work` of `key` has settled; resolves with its result. */
export async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const turn = (running.get(key) ?? Promise.resolve()).then(work, work);
  running.set(key, turn);
  try {
    return await turn;
  } finally {
    // The last of the key's turns forgets it, so the map holds only comments being edited.
    if (running.get(key) === turn) running.delete(key);
  }
}
