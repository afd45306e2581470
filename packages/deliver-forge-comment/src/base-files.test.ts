import { describe, expect, it } from 'vitest';
import { BaseFiles } from './base-files.js';

describe('BaseFiles', () => {
  it('reads a file of a commit once, a missing one too, and reads at once share one call', async () => {
    const files = new BaseFiles();
    let reads = 0;
    const read = (text: string | undefined) => async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return text;
    };
    const both = await Promise.all([
      files.get('forge|github.com|o/r', 'a'.repeat(40), 'AGENTS.md', read('Be kind.')),
      files.get('forge|github.com|o/r', 'a'.repeat(40), 'AGENTS.md', read('Be kind.')),
    ]);
    expect(both).toEqual(['Be kind.', 'Be kind.']);
    expect(
      await files.get('forge|github.com|o/r', 'a'.repeat(40), 'CLAUDE.md', read(undefined)),
    ).toBeUndefined();
    expect(
      await files.get('forge|github.com|o/r', 'a'.repeat(40), 'CLAUDE.md', read('late')),
    ).toBeUndefined();
    expect(reads).toBe(2);
    // Another commit, another repository: read again.
    expect(await files.get('forge|github.com|o/r', 'b'.repeat(40), 'AGENTS.md', read('New.'))).toBe(
      'New.',
    );
    expect(
      await files.get('forge|github.com|o/other', 'a'.repeat(40), 'AGENTS.md', read('X.')),
    ).toBe('X.');
    expect(reads).toBe(4);
  });

  it('keeps no failed read', async () => {
    const files = new BaseFiles();
    const failing = () => Promise.reject(new Error('gh api … timed out after 60 s'));
    await expect(files.get('k', 's', 'p', failing)).rejects.toThrow('timed out');
    expect(await files.get('k', 's', 'p', async () => 'found')).toBe('found');
  });
});
