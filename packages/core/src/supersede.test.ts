import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.js';
import { runSupersedeScenario } from './testing/supersede-scenario.js';

describe('supersede: true on a memory store', () => {
  it('runs the open review and the newest push only; the pushes between end superseded', async () => {
    const { prompts, rows } = await runSupersedeScenario(new MemoryStore(), { supersede: true });
    expect(prompts).toEqual(['head a1 since []', 'head a4 since [a1]']);
    expect(rows.map((r) => r.status)).toEqual([
      'delivered',
      'superseded',
      'superseded',
      'delivered',
    ]);
    expect(rows[1]?.supersededBy).toBe(rows[2]?.id);
    expect(rows[2]?.supersededBy).toBe(rows[3]?.id);
    expect(rows[1]?.attempts).toBe(0);
  });

  it('without it, every push runs, each prompt naming the head reviewed before', async () => {
    const { prompts, rows } = await runSupersedeScenario(new MemoryStore(), { supersede: false });
    expect(prompts).toEqual([
      'head a1 since []',
      'head a2 since [a1]',
      'head a3 since [a2]',
      'head a4 since [a3]',
    ]);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
  });
});
