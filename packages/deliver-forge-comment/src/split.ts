/**
 * Splits an answer longer than a platform's comment limit into numbered parts, cutting on
 * paragraph, then line, then word boundaries, so that each part fits the limit numbering included.
 */

/** Boundaries tried in order; the first that leaves a non-empty part wins. */
const BOUNDARIES = ['\n\n', '\n', ' '] as const;

/** The line that opens part `index` of `total`, e.g. `(1/3)` and a blank line. */
export function partHeader(index: number, total: number): string {
  return `(${index}/${total})\n\n`;
}

/** True for the first half of a UTF-16 surrogate pair, which must not be cut from its second. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Where to end the next part of `text` (at most `max` long) and where the part after it starts. */
function cutPoint(text: string, max: number): { end: number; next: number } {
  for (const boundary of BOUNDARIES) {
    // Search from `max`: a boundary starting there still leaves a part of exactly `max`.
    const at = text.lastIndexOf(boundary, max);
    if (at > 0) return { end: at, next: at + boundary.length };
  }
  // A single word longer than a whole part: cut it, but never inside a surrogate pair.
  const end = max > 1 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return { end, next: end };
}

/**
 * Cuts `text` into pieces of at most `max` characters on the best boundary available. The
 * whitespace at a cut is dropped; every other character is kept, in order.
 */
export function chunkText(text: string, max: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const { end, next } = cutPoint(rest, max);
    const chunk = rest.slice(0, end).trimEnd();
    chunks.push(chunk === '' ? rest.slice(0, end) : chunk);
    rest = rest.slice(next).trimStart();
  }
  if (rest !== '' || chunks.length === 0) chunks.push(rest);
  return chunks;
}

/**
 * The comments an answer becomes: the text itself when it fits `limit` (counted in UTF-16 code
 * units, which is never less than the characters a forge counts), else numbered parts
 * `(1/n)`, `(2/n)`, … each within `limit` including its header.
 *
 * @example splitForComments('a'.repeat(100_000), 65_536).length // 2
 */
export function splitForComments(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`comment limit must be a positive integer, got ${limit}`);
  }
  if (text.length <= limit) return [text];
  // The header's width depends on the number of parts, which depends on the room the header
  // leaves: start with one-digit counts and widen until the count fits the width reserved.
  let reservedTotal = 9;
  for (;;) {
    const room = limit - partHeader(reservedTotal, reservedTotal).length;
    if (room < 1) {
      throw new RangeError(`comment limit ${limit} leaves no room for text after the numbering`);
    }
    const chunks = chunkText(text, room);
    // Only whitespace beyond the limit: one part, nothing to number.
    if (chunks.length === 1) return chunks;
    if (chunks.length <= reservedTotal) {
      return chunks.map((chunk, i) => partHeader(i + 1, chunks.length) + chunk);
    }
    reservedTotal = 10 ** String(chunks.length).length - 1;
  }
}
