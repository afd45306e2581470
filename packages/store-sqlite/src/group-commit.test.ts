import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';
import { HOUR_MS, newDelivery, useTestStores } from './test-support/stores.js';

const { open } = useTestStores();

describe('GroupCommit', () => {
  it('commits everything submitted in one tick in one call, in order', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit((items: readonly number[]) => {
      batches.push([...items]);
      return items.map((item) => item * 10);
    });
    const results = await Promise.all([1, 2, 3].map((item) => group.submit(item)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('holds a scheduled commit while its gate is closed, and never an explicit flush', async () => {
    const batches: number[][] = [];
    let open = false;
    let inside = 0;
    const group = new GroupCommit(
      (items: readonly number[]) => {
        batches.push([...items]);
        return [...items];
      },
      { enter: () => open && ++inside === 1, leave: () => void inside-- },
    );
    const first = group.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([]);
    open = true;
    expect(await first).toBe(1);
    expect(batches).toEqual([[1]]);
    expect(inside).toBe(0);

    open = false;
    const second = group.submit(2);
    group.flush();
    expect(await second).toBe(2);
    expect(batches).toEqual([[1], [2]]);
  });

  it('starts a new batch for what is submitted after a commit', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit((items: readonly number[]) => {
      batches.push([...items]);
      return [...items];
    });
    await Promise.all([group.submit(1), group.submit(2)]);
    await group.submit(3);
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('rejects every caller of a batch whose commit fails, and goes on with the next', async () => {
    let fail = true;
    const group = new GroupCommit((items: readonly number[]) => {
      if (fail) throw new Error('disk I/O error');
      return [...items];
    });
    const failed = [group.submit(1), group.submit(2)];
    for (const result of failed) await expect(result).rejects.toThrow('disk I/O error');
    fail = false;
    expect(await group.submit(3)).toBe(3);
  });

  it('flush commits at once what is waiting', () => {
    const group = new GroupCommit((items: readonly number[]) => [...items]);
    void group.submit(1);
    expect(group.pending).toBe(1);
    group.flush();
    expect(group.pending).toBe(0);
  });
});

describe('group commit of accepts', () => {
  it('commits many accepts of one tick and detects duplicates inside the batch', async () => {
    const store = open();
    const ids = Array.from({ length: 200 }, (_, index) => `d-${index % 150}`);
    const results = await Promise.all(
      ids.map((deliveryId) => store.accept(newDelivery({ deliveryId }), HOUR_MS)),
    );
    expect(results.filter((r) => r.accepted)).toHaveLength(150);
    // The second sighting of an id in the same batch is the duplicate, never the first.
    results.forEach((result, index) => expect(result.accepted).toBe(index < 150));

    await store.close();
    const reopened = open(store.path);
    expect(await reopened.list({ limit: 1000 })).toHaveLength(150);
    const seqs = (await reopened.queued(0, 1000)).map((r) => r.seq);
    expect(new Set(seqs).size).toBe(150);
  });
});
