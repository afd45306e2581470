/**
 * What the checks of the `Store` contract share: the subject a store's tests give, and how one
 * check opens its store and accepts deliveries into it.
 */
import assert from 'node:assert/strict';
import type { AcceptResult, DeliveryRecord, NewDelivery, Store } from '../index.js';
import { sampleDelivery } from './store-samples.js';

/** The store under test, as its package opens it. */
export interface StoreContractSubject {
  /** A fresh, empty store for one check; the caller closes it and removes its data afterwards. */
  open(): Store | Promise<Store>;
  /**
   * The time (ms) each check starts from; every `receivedAt` and `now` it passes follows it.
   * Date.now() by default, which a store whose windows run on its own clock (Redis key TTLs) needs.
   */
  now?: () => number;
  /**
   * True for a store that keeps idempotency keys apart from its rows and drops the expired ones in
   * `prune`, reporting how many. False (the default) for one that keeps a key on its row (SQLite)
   * or lets keys expire by themselves (Redis): its `prune` reports no keys.
   */
  prunesExpiredKeys?: boolean;
}

/** One behaviour of the contract. */
export interface StoreContractCheck {
  /** The behaviour, to be used as the test's name. */
  readonly name: string;
  /** Opens a store through `subject`, exercises it and throws an `AssertionError` on a miss. */
  run(subject: StoreContractSubject): Promise<void>;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** A window short enough to wait out, for a store whose keys expire on the real clock. */
export const SHORT_WINDOW_MS = 30;

/** What a check works with: its store, its start time and deliveries received then. */
export interface CheckContext {
  store: Store;
  t0: number;
  prunesExpiredKeys: boolean;
  /** A delivery received at `t0` unless overridden. */
  delivery: (overrides?: Partial<NewDelivery>) => NewDelivery;
  /** Accepts a delivery within an hour's window and returns its row, failing on a duplicate. */
  acceptNew: (overrides?: Partial<NewDelivery>) => Promise<DeliveryRecord>;
}

export function check(
  name: string,
  body: (context: CheckContext) => Promise<void>,
): StoreContractCheck {
  return {
    name,
    async run(subject) {
      const store = await subject.open();
      const t0 = subject.now?.() ?? Date.now();
      const delivery = (overrides: Partial<NewDelivery> = {}) =>
        sampleDelivery({ receivedAt: t0, ...overrides });
      await body({
        store,
        t0,
        prunesExpiredKeys: subject.prunesExpiredKeys ?? false,
        delivery,
        acceptNew: async (overrides) =>
          acceptedRecord(await store.accept(delivery(overrides), HOUR_MS)),
      });
    },
  };
}

export function acceptedRecord(result: AcceptResult): DeliveryRecord {
  if (!result.accepted)
    assert.fail('expected the delivery to be accepted, the store said duplicate');
  return result.record;
}

/** Asserts that `actual` has each field of `expected` with an equal value; others are ignored. */
export function assertFields<T extends object>(
  actual: T | undefined,
  expected: Partial<T>,
): asserts actual is T {
  assert.ok(actual !== undefined, 'expected a journal row, got undefined');
  const picked = Object.fromEntries(
    Object.keys(expected).map((key) => [key, (actual as Record<string, unknown>)[key]]),
  );
  assert.deepStrictEqual(picked, expected);
}
