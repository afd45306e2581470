/**
 * HTML built by a tagged template that escapes every interpolated value, so attacker-controlled
 * payload text can never become markup. Only `SafeHtml` (made by `html` itself) passes through.
 */

/** Markup that is already escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A value an `html` template accepts: text is escaped, `SafeHtml` kept, lists joined. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ESCAPES[char] ?? char);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * Builds markup; every `${value}` is escaped unless it is `SafeHtml`.
 *
 * @example
 * html`<td>${payloadTitle}</td>` // "<td>&lt;script&gt;…</td>"
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}
