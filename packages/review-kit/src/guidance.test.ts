import { describe, expect, it } from 'vitest';
import { capGuidance } from './guidance.js';
import { countTokens } from './tokens.js';

describe('capGuidance', () => {
  const agents = { path: 'AGENTS.md', text: 'Run npm test before pushing.' };
  const long = { path: 'CLAUDE.md', text: 'Keep functions short. '.repeat(2_000) };

  it('takes the files whole, under headings, within the cap', () => {
    const guidance = capGuidance([agents], 1_000);
    expect(guidance.text).toBe('## AGENTS.md\n\nRun npm test before pushing.');
    expect(guidance.truncated).toEqual([]);
  });

  it('cuts the file that crosses the cap, marks the cut and names it', () => {
    const guidance = capGuidance([agents, long, { path: 'x.md', text: 'late' }], 300);
    expect(guidance.truncated).toEqual(['CLAUDE.md', 'x.md']);
    expect(guidance.text).toContain('[… cut at the guidance budget]');
    expect(guidance.text).not.toContain('late');
    expect(countTokens(guidance.text)).toBeLessThanOrEqual(300 + 16);
  });
});
