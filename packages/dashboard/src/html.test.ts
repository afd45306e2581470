import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from './html.js';

describe('html', () => {
  it('escapes markup characters in interpolated text', () => {
    const title = `<img src=x onerror="alert('x')">&\``;
    expect(html`<td>${title}</td>`.value).toBe(
      '<td>&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;&#96;</td>',
    );
  });

  it('keeps nested html fragments and joins lists without commas', () => {
    const rows = ['a<', 'b'].map((cell) => html`<li>${cell}</li>`);
    // prettier-ignore
    const list = html`<ul>${rows}</ul>`;
    expect(list.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>');
  });

  it('renders null, undefined and false as nothing, numbers and true as text', () => {
    expect(html`${null}|${undefined}|${false}|${0}|${true}`.value).toBe('|||0|true');
  });

  it('does not trust a plain string that looks like markup', () => {
    expect(html`${'<b>x</b>'}`.value).toBe('&lt;b&gt;x&lt;/b&gt;');
    expect(html`${new SafeHtml('<b>x</b>')}`.value).toBe('<b>x</b>');
  });

  it('escapes quotes so a value cannot leave an attribute', () => {
    expect(escapeHtml(`" autofocus onfocus="x`)).toBe('&quot; autofocus onfocus=&quot;x');
  });
});
