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

  it('has no line comments section when the agent made none', () => {
    const text = deliveryPage({ record: deliveryRecord(), replayed: false, refreshMs: 0 });
    expect(text.toString()).not.toContain('Line comments');
  });
});
