import { runSupersedeScenario } from '@webhook-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { useTestStores } from './test-support/stores.js';

const { open } = useTestStores();

describe('supersede: true on the SQLite journal, through a whole gateway', () => {
  it('runs the open review and the newest push only; the pushes between end superseded', async () => {
    const { prompts, rows } = await runSupersedeScenario(open(), { supersede: true });
    expect(prompts).toEqual(['head a1 since []', 'head a4 since [a1]']);
    expect(rows.map((r) => r.status)).toEqual([
      'delivered',
      'superseded',
      'superseded',
      'delivered',
    ]);
    expect(rows[1]?.supersededBy).toBe(rows[2]?.id);
    expect(rows[2]?.supersededBy).toBe(rows[3]?.id);
  });
});
