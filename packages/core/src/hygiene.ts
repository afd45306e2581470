/**
 * Prompt hygiene: before payload text reaches a template or the prepared context, what a human
 * reviewer cannot see is taken out (HTML comments, zero-width characters, bidi controls, Unicode
 * tag characters) and each string is capped, with a note of what was removed and where, so the
 * operator learns that someone tried.
 */
import { hygieneForRoute, type GatewayConfig, type RouteConfig } from './config/schema.js';
import type { HiddenContentNote } from './delivery.js';
import type { JsonObject } from './template.js';

/** The kinds hygiene removes, as a delivery's notes name them. */
export const HIDDEN_KINDS = {
  htmlComment: 'HTML comment',
  zeroWidth: 'zero-width character',
  bidi: 'bidi control',
  tag: 'tag character',
  cut: 'cut',
} as const;

/** An HTML comment, or one left open to the end of the text (the renderer hides both). */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** Zero-width space, non-joiner, joiner, word joiner, byte order mark, Mongolian vowel separator. */
// An alternation, not a class: a joiner inside a class reads as a joined sequence to linters.
const ZERO_WIDTH = /\u200B|\u200C|\u200D|\u2060|\uFEFF|\u180E/g;
/** Embeddings, overrides and isolates (Trojan Source), the LRM/RLM/ALM marks. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
/** The Tags block (U+E0000–U+E007F): invisible, yet models read them as ASCII. */
const TAGS = /[\u{E0000}-\u{E007F}]/gu;

/**
 * Whether a text holds anything above: most strings of a payload (URLs, names, shas) hold none,
 * and one search spares them the four replacements.
 */
const ANY_HIDDEN =
  /<!--|\u200B|\u200C|\u200D|\u2060|\uFEFF|\u180E|[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]|[\u{E0000}-\u{E007F}]/u;

/** What hygiene does: on by default; each string capped at `maxFieldChars` when set. */
export interface HygieneSettings {
  enabled: boolean;
  maxFieldChars: number | undefined;
}

/** A payload as it may reach the prompt, and what was taken out of it. */
export interface CleanPayload {
  payload: JsonObject;
  notes: HiddenContentNote[];
}

function cleanString(
  text: string,
  maxFieldChars: number | undefined,
): { text: string; removed: Record<string, number> } {
  const removed: Record<string, number> = {};
  const fits = maxFieldChars === undefined || text.length <= maxFieldChars;
  if (fits && !ANY_HIDDEN.test(text)) return { text, removed };
  const take = (input: string, pattern: RegExp, kind: string): string =>
    input.replace(pattern, () => {
      removed[kind] = (removed[kind] ?? 0) + 1;
      return '';
    });
  let out = take(text, HTML_COMMENT, HIDDEN_KINDS.htmlComment);
  out = take(out, ZERO_WIDTH, HIDDEN_KINDS.zeroWidth);
  out = take(out, BIDI, HIDDEN_KINDS.bidi);
  out = take(out, TAGS, HIDDEN_KINDS.tag);
  if (maxFieldChars !== undefined && out.length > maxFieldChars) {
    const cut = out.length - maxFieldChars;
    removed[HIDDEN_KINDS.cut] = cut;
    out = `${out.slice(0, maxFieldChars)}[cut ${cut} chars]`;
  }
  return { text: out, removed };
}

function cleanValue(
  value: unknown,
  field: string,
  settings: HygieneSettings,
  notes: HiddenContentNote[],
): unknown {
  if (typeof value === 'string') {
    const { text, removed } = cleanString(value, settings.maxFieldChars);
    if (Object.keys(removed).length > 0) notes.push({ field, removed });
    return text;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => cleanValue(item, `${field}.${index}`, settings, notes));
  }
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = cleanValue(child, field === '' ? key : `${field}.${key}`, settings, notes);
    }
    return out;
  }
  return value;
}

/**
 * Every string of `payload` cleaned, and a note per field that lost something. With hygiene off
 * the payload is returned as it is.
 *
 * @example cleanPayload({ body: 'hi<!-- run rm -rf -->' }, { enabled: true, maxFieldChars: undefined })
 * // { payload: { body: 'hi' }, notes: [{ field: 'body', removed: { 'HTML comment': 1 } }] }
 */
export function cleanPayload(payload: JsonObject, settings: HygieneSettings): CleanPayload {
  if (!settings.enabled) return { payload, notes: [] };
  const notes: HiddenContentNote[] = [];
  const cleaned = cleanValue(payload, '', settings, notes) as JsonObject;
  return { payload: cleaned, notes };
}

/** `pull_request.body: 1 HTML comment, 3 bidi controls`: one note as a person reads it. */
export function describeHiddenContent(note: HiddenContentNote): string {
  const parts = Object.entries(note.removed).map(([kind, count]) =>
    kind === HIDDEN_KINDS.cut ? `cut ${count} chars` : `${count} ${kind}${count === 1 ? '' : 's'}`,
  );
  return `${note.field}: ${parts.join(', ')}`;
}

/** `payload` cleaned under the route's hygiene (the top-level `hygiene:` with the route's on top). */
export function cleanRoutePayload(
  config: GatewayConfig,
  route: RouteConfig,
  payload: JsonObject,
): CleanPayload {
  const settings = hygieneForRoute(config.hygiene, route.hygiene);
  return cleanPayload(payload, {
    enabled: settings.enabled,
    maxFieldChars: settings.max_field_chars,
  });
}
