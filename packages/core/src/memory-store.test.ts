import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.js';
import { sampleDelivery } from './testing/store-samples.js';
import { storeContract } from './testing/store-contract.js';

describe('the Store contract', () => {
  const subject = { open: () => new MemoryStore(), prunesExpiredKeys: true };
  for (const check of storeContract) it(check.name, () => check.run(subject));
});

describe('recover', () => {
  it('puts rows left running back in the queue and closes their interrupted attempt', async () => {
    const store = new MemoryStore();
    const accept = async () => {
      const result = await store.accept(sampleDelivery(), 3_600_000);
      if (!result.accepted) throw new Error('expected the delivery to be accepted');
      return result.record;
    };
    const running = await accept();
    const queued = await accept();
    await store.markRunning(running.id, Date.now());

    expect(await store.recover()).toBe(1);
    const read = await store.get(running.id);
    expect(read?.status).toBe('queued');
    expect(read?.attemptLog.at(-1)?.error).toBe(
      'interrupted: the gateway stopped during this attempt',
    );
    expect((await store.get(queued.id))?.status).toBe('queued');
    expect(await store.recover()).toBe(0);
  });
});
