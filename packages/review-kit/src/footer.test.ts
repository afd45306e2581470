import { describe, expect, it } from 'vitest';
import { reviewFooter } from './footer.js';

describe('reviewFooter', () => {
  it('says nothing when the bot read everything and refused nothing', () => {
    expect(reviewFooter({ skipped: [] })).toBe('');
  });

  it('names each file not read with its reason, refused keys and a rules problem', () => {
    const footer = reviewFooter({
      skipped: [
        { path: 'package-lock.json', reason: 'generated', kind: 'lockfile' },
        { path: 'src/huge.ts', reason: 'budget', kind: 'source' },
      ],
      refused: ['model'],
      configProblem: 'skip.labels: expected array',
    });
    expect(footer).toContain(
      '**Not reviewed** (2 files; generated: 1, budget: 1): `package-lock.json` (generated), `src/huge.ts` (budget)',
    );
    expect(footer).toContain(
      '**Refused in .webhook-gateway.yaml** (only the host may set them): `model`',
    );
    expect(footer).toContain(
      '**.webhook-gateway.yaml was not applied**: skip.labels: expected array',
    );
  });

  it('names the first 40 of many and counts the rest', () => {
    const skipped = Array.from({ length: 100 }, (_, i) => ({
      path: `gen/${i}.js`,
      reason: 'generated' as const,
      kind: 'generated' as const,
    }));
    const footer = reviewFooter({ skipped });
    expect(footer).toContain('`gen/39.js` (generated), and 60 more');
    expect(footer).not.toContain('gen/40.js');
  });

  it('says when the diff could not be read', () => {
    expect(
      reviewFooter({ skipped: [], diffProblem: 'the forge answered 406 (too large)' }),
    ).toContain(
      '**The diff could not be read**: the forge answered 406 (too large). This review may be incomplete.',
    );
  });
});
