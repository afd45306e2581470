import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, newDelivery, useTestStores } from './test-support/stores.js';

const { open } = useTestStores();

describe('reading rows', () => {
  it('reports a damaged row with its table, id and column instead of returning bad data', async () => {
    const store = open();
    const result = await store.accept(newDelivery(), HOUR_MS);
    if (!result.accepted) throw new Error('expected the delivery to be accepted');
    const other = new Database(store.path);
    other.prepare(`UPDATE delivery_payloads SET payload = '{not json'`).run();
    other.prepare(`UPDATE deliveries SET headers = '{"x-count": 1}'`).run();
    other.close();

    const read = store.get(result.record.id);
    await expect(read).rejects.toThrow(
      `the deliveries row "${result.record.id}" in the journal is damaged`,
    );
    await expect(store.get(result.record.id)).rejects.toThrow(/payload is not valid JSON/);
    await expect(store.get(result.record.id)).rejects.toThrow(/headers\.x-count/);
  });
});

describe('a journal row without its payload', () => {
  it('is reported as damaged, not left out of the journal', async () => {
    const store = open();
    const result = await store.accept(newDelivery(), HOUR_MS);
    if (!result.accepted) throw new Error('expected the delivery to be accepted');
    const other = new Database(store.path);
    other.prepare('DELETE FROM delivery_payloads').run();
    other.close();
    await expect(store.list({ limit: 10 })).rejects.toThrow(/payload/);
  });
});

describe('agent accounting written before cached prompt tokens were counted', () => {
  it('reads as it was written, with no cached prompt tokens', async () => {
    const store = open();
    const result = await store.accept(newDelivery(), HOUR_MS);
    if (!result.accepted) throw new Error('expected the delivery to be accepted');
    const older = {
      runner: 'openai',
      model: 'm',
      usage: { promptTokens: 900, completionTokens: 100, totalTokens: 1000 },
    };
    const other = new Database(store.path);
    other.prepare('UPDATE deliveries SET agent = ?').run(JSON.stringify(older));
    other.close();
    const read = await store.get(result.record.id);
    expect(read?.agent).toEqual(older);
    const [outline] = await store.outlines(0, 10);
    expect(outline?.agent).toEqual(older);
  });
});
