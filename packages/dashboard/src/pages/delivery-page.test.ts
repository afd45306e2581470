import type { TokenUsage } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { deliveryRecord } from '../test-support/records.js';
import { deliveryPage } from './delivery-page.js';

describe('deliveryPage', () => {
  it("shows the agent's line comments after the answer, escaped", () => {
    const text = deliveryPage({
      record: deliveryRecord({
        answer: 'Two remarks.',
        lineComments: [
          { path: 'src/a.ts', line: 12, body: 'use <code>n + 1</code>' },
          { path: 'README.md', line: 3, body: 'typo' },
        ],
      }),
      replayed: false,
      refreshMs: 0,
    }).toString();
    const after = text.slice(text.indexOf('<h2>Answer</h2>'));
    expect(after).toContain('<h2>Line comments</h2>');
    expect(after).toMatch(/data-label="File"><code>src\/a.ts<\/code>[\s\S]*?data-label="Line">12</);
    expect(after).toContain('use &lt;code&gt;n + 1&lt;/code&gt;');
    expect(after).toMatch(/README.md[\s\S]*?data-label="Line">3</);
  });

  it("shows a comment's range and its suggestion as text", () => {
    const text = deliveryPage({
      record: deliveryRecord({
        answer: 'One remark.',
        lineComments: [
          { path: 'src/a.ts', start_line: 3, line: 5, body: 'simpler', suggestion: 'return a;' },
        ],
      }),
      replayed: false,
      refreshMs: 0,
    }).toString();
    expect(text).toContain('data-label="Line">3–5<');
    const fence = '&#96;'.repeat(3);
    expect(text).toContain(`simpler\n\nSuggested change:\n${fence}\nreturn a;\n${fence}`);
  });

  it("shows the agent's conclusion with its reason, escaped, and nothing when it gave none", () => {
    const page = (conclusion?: { value: 'failure'; reason: string }) =>
      deliveryPage({
        record: deliveryRecord({ status: 'delivered', ...(conclusion ? { conclusion } : {}) }),
        replayed: false,
        refreshMs: 0,
      }).toString();
    const text = page({ value: 'failure', reason: 'a <script> tag in the key' });
    expect(text).toMatch(
      /<dt>Conclusion<\/dt>\s*<dd id="conclusion">\s*failure: a &lt;script&gt; tag in the key\s*<\/dd>/,
    );
    expect(page()).not.toContain('Conclusion');
  });

  it('says a delivered review is partial in its status badge', () => {
    const page = (partial: boolean) =>
      deliveryPage({
        record: deliveryRecord({ status: 'delivered', ...(partial ? { partial } : {}) }),
        replayed: false,
        refreshMs: 0,
      }).toString();
    expect(page(true)).toContain(
      '<span class="status status-delivered">delivered (partial)</span>',
    );
    expect(page(false)).toContain('<span class="status status-delivered">delivered</span>');
  });

  it('shows what hygiene and redaction took out, before the prompt, and nothing when neither did', () => {
    const text = deliveryPage({
      record: deliveryRecord({
        safety: {
          redactions: 2,
          hidden: [
            { field: 'pull_request.body', removed: { 'HTML comment': 1, 'bidi control': 3 } },
          ],
        },
      }),
      replayed: false,
      refreshMs: 0,
    }).toString();
    const section = text.slice(text.indexOf('<h2>Taken out</h2>'), text.indexOf('<h2>Prompt</h2>'));
    expect(section).toContain(
      'Hidden content removed from the payload: <code>pull_request.body: 1 HTML comment, 3 bidi controls</code>',
    );
    expect(section).toContain('Secrets redacted from the answer before it left: 2');
    const plain = deliveryPage({ record: deliveryRecord(), replayed: false, refreshMs: 0 });
    expect(plain.toString()).not.toContain('Taken out');
  });

  it('has no line comments section when the agent made none', () => {
    const text = deliveryPage({ record: deliveryRecord(), replayed: false, refreshMs: 0 });
    expect(text.toString()).not.toContain('Line comments');
  });

  it("counts this review's findings (new, still open, resolved since the last one) and lists each with its fate, escaped", () => {
    const record = deliveryRecord();
    const base = { path: 'src/a.ts', lineText: 'x', state: 'open' as const, raisedBy: 'earlier' };
    const text = deliveryPage({
      record,
      replayed: false,
      refreshMs: 0,
      findings: [
        { ...base, fingerprint: 'a1', line: 2, body: 'use <b>', raisedBy: record.deliveryId },
        { ...base, fingerprint: 'a2', line: 3, body: 'kept', seenBy: record.deliveryId },
        { ...base, fingerprint: 'a3', line: 4, body: 'kept too', seenBy: record.deliveryId },
        {
          ...base,
          fingerprint: 'a4',
          line: 5,
          body: 'no',
          state: 'dismissed',
          closedBy: record.deliveryId,
        },
      ],
    }).toString();
    const counts = text.slice(
      text.indexOf('id="finding-counts"'),
      text.indexOf('</dl>', text.indexOf('id="finding-counts"')),
    );
    expect(counts.replace(/\s+/g, ' ')).toContain(
      '<dt>New</dt> <dd>1</dd> <dt>Still open</dt> <dd>2</dd> <dt>Resolved since the last review</dt> <dd>1</dd>',
    );
    expect(text).toContain('use &lt;b&gt;');
    expect(text).toMatch(
      /data-label="Line">5<\/td>\s*<td data-label="Fate">Dismissed by a person</,
    );
    // Without findings there is no section.
    expect(deliveryPage({ record, replayed: false, refreshMs: 0 }).toString()).not.toContain(
      '<h2>Findings</h2>',
    );
  });

  it('splits the prompt tokens into cached and uncached, and counts none cached on an older row', () => {
    const agent = (usage: TokenUsage) =>
      deliveryPage({
        record: deliveryRecord({ agent: { runner: 'openai', model: 'm', usage } }),
        replayed: false,
        refreshMs: 0,
      }).toString();
    const usage = { promptTokens: 5210, completionTokens: 412, totalTokens: 5622 };
    expect(agent({ ...usage, cachedPromptTokens: 4096 })).toContain(
      '5622 (prompt 5210: 4096 cached, 1114 uncached; completion 412)',
    );
    expect(agent(usage)).toContain('5622 (prompt 5210: 0 cached, 5210 uncached; completion 412)');
  });
});
