/** Cuts a command's output to a byte budget, saying so when it does. */

/** Output as the model sees it, with a note when some of it was left out. */
export interface CappedOutput {
  text: string;
  /** Set when the text was cut, e.g. "cut: showing the first 16384 of 50000 bytes". */
  note?: string;
}

/**
 * The first `maxBytes` of `bytes` as UTF-8 text. `overflowed` says the reader already stopped
 * collecting (the total is then unknown, only "more than").
 *
 * @example capOutput(Buffer.from('abcdef'), 4, false) // { text: 'abcd', note: 'cut: showing the first 4 of 6 bytes' }
 */
export function capOutput(bytes: Uint8Array, maxBytes: number, overflowed: boolean): CappedOutput {
  if (bytes.length <= maxBytes && !overflowed) return { text: decode(bytes) };
  // Drop a character split by the cut rather than show a replacement mark.
  const text = decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
  const total = overflowed ? `more than ${bytes.length}` : String(bytes.length);
  return { text, note: `cut: showing the first ${maxBytes} of ${total} bytes` };
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}
