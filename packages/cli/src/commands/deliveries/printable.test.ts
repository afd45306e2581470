import { describe, expect, it } from 'vitest';
import { printable } from './printable.js';

describe('printable', () => {
  it('shows terminal escape sequences instead of sending them', () => {
    expect(printable('title \u001b]0;pwned\u0007 \u009b31m')).toBe(
      'title \\x1b]0;pwned\\x07 \\x9b31m',
    );
  });

  it('keeps newlines, tabs and non-ASCII text', () => {
    expect(printable('línea 1\n\tlínea 2 ✓')).toBe('línea 1\n\tlínea 2 ✓');
  });
});
