/**
 * Splits long text for services with a length limit (chat messages, SMS, comments): cut where a
 * reader would pause (paragraph, then line, then word), hard-cut only inside one over-long word.
 */

/** Where a long message may be cut, most preferred first. Each regex matches the separator. */
const BOUNDARIES: readonly RegExp[] = [
  /\n(?:[^\S\n]*\n)+/g, // a blank line (paragraph)
  /\r?\n/g, // a line break
  /\s+/g, // a space between words
];

interface Cut {
  /** End of the part (exclusive). */
  end: number;
  /** Start of the rest: the separator at the cut is dropped. */
  next: number;
}

/** The last separator of `boundary` that starts after 0 and at or before `limit`. */
function lastBoundary(text: string, limit: number, boundary: RegExp): Cut | undefined {
  let start: number | undefined;
  for (const match of text.slice(0, limit + 1).matchAll(boundary)) {
    if (match.index > 0) start = match.index;
  }
  if (start === undefined) return undefined;
  // Measure the whole separator in the full text: the window may have cut it short.
  const sticky = new RegExp(boundary.source, 'y');
  sticky.lastIndex = start;
  const separator = sticky.exec(text)?.[0] ?? '';
  return { end: start, next: start + separator.length };
}

/** A cut at `limit`, moved back one so a surrogate pair (an emoji) is never split. */
function hardCut(text: string, limit: number): Cut {
  const code = text.charCodeAt(limit - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  return { end, next: end };
}

function findCut(text: string, limit: number): Cut {
  for (const boundary of BOUNDARIES) {
    const cut = lastBoundary(text, limit, boundary);
    if (cut) return cut;
  }
  return hardCut(text, limit);
}

/**
 * Splits `text` into parts of at most `limit` UTF-16 code units (what JavaScript's `length`
 * counts; never fewer than the services' own counts), in order.
 *
 * @example
 * splitText('first paragraph\n\nsecond paragraph', 20); // ['first paragraph', 'second paragraph']
 */
export function splitText(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 2) {
    throw new RangeError(`message limit must be an integer of at least 2, got ${limit}`);
  }
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const cut = findCut(rest, limit);
    const part = rest.slice(0, cut.end).trimEnd();
    if (part.trim() !== '') parts.push(part);
    rest = rest.slice(cut.next);
  }
  if (rest.trim() !== '' || parts.length === 0) parts.push(rest);
  return parts;
}
