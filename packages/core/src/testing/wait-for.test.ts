import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('asks again while the probe answers undefined or false, then resolves with its answer', async () => {
    const answers = [undefined, false, 0, 1];
    let asked = 0;
    const value = await waitFor(() => answers[asked++], 'an answer');
    // 0 is an answer: only undefined and false mean "not yet".
    expect(value).toBe(0);
    expect(asked).toBe(3);
  });

  it('resolves with true once a condition holds', async () => {
    let asked = 0;
    await expect(waitFor(async () => ++asked === 3, 'the third time')).resolves.toBe(true);
  });

  it('fails naming what it waited for and what it last saw', async () => {
    let status = 'none';
    const probe = () => {
      status = 'queued';
      return undefined;
    };
    await expect(
      waitFor(probe, 'the row to finish', { timeoutMs: 50, describe: () => `status ${status}` }),
    ).rejects.toThrow('timed out waiting for the row to finish after 50 ms (status queued)');
  });
});
