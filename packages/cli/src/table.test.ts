import { describe, expect, it } from 'vitest';
import { formatDuration, formatTable } from './table.js';

describe('formatTable', () => {
  it('aligns columns under the header and cuts long cells', () => {
    const text = formatTable(
      ['ID', 'ROUTE'],
      [
        ['1', 'reviews'],
        ['22', 'x'.repeat(60)],
      ],
      10,
    );
    expect(text.split('\n')).toEqual(['ID  ROUTE', '1   reviews', `22  ${'x'.repeat(9)}…`]);
  });
});

describe('formatDuration', () => {
  it('picks a readable unit', () => {
    expect([
      formatDuration(850),
      formatDuration(12_345),
      formatDuration(240_000),
      formatDuration(null),
    ]).toEqual(['850 ms', '12.3 s', '4 min', '-']);
  });
});
