/**
 * Reading a gateway's journal from a test: through the CLI (`deliveries list|show --json`, what
 * an operator sees), or straight from the SQLite file for quick polling while a gateway runs.
 */
import path from 'node:path';
import type { DeliveryRecord } from '@webhook-gateway/core';
import { waitFor } from '@webhook-gateway/core/testing';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { runCli } from './gateway.js';

/** A row of `deliveries list --json`. */
export interface ListedDelivery {
  id: string;
  deliveryId: string;
  route: string;
  event: string;
  action: string | null;
  status:
    | 'queued'
    | 'running'
    | 'delivered'
    | 'failed'
    | 'denied'
    | 'over_budget'
    | 'superseded'
    | 'silent';
  attempts: number;
  maxAttempts: number;
  receivedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  lastError: string | null;
  tokens: number | null;
  cost: { amount: number; currency: string } | null;
  /** The answer is what the agent produced before a limit stopped it. */
  partial: boolean;
}

/** `deliveries show --json`. */
export interface ShownDelivery extends ListedDelivery {
  authScheme: string | null;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
  prompt: string | null;
  answer: string | null;
  lineComments: { path: string; line: number; body: string }[];
  attemptLog: {
    attempt: number;
    startedAt: string;
    finishedAt: string | null;
    durationMs: number | null;
    error: string | null;
  }[];
  agent: Record<string, unknown> | null;
  /** The findings its route keeps for the same request, each with its fate. */
  findings: { path: string; line: number; body: string; state: string; fate: string }[];
}

/** Runs `webhook-gateway deliveries <args> --home <home>` and fails the test on a non-zero exit. */
async function deliveriesJson(home: string, args: string[]): Promise<unknown> {
  const result = await runCli(['deliveries', ...args, '--json', '--home', home]);
  if (result.code !== 0) {
    throw new Error(`deliveries ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as unknown;
}

/** Every delivery of the journal, newest first, as `deliveries list --json` prints them. */
export async function listDeliveries(home: string, ...args: string[]): Promise<ListedDelivery[]> {
  return (await deliveriesJson(home, ['list', '--limit', '100000', ...args])) as ListedDelivery[];
}

/** One delivery as `deliveries show <id> --json` prints it. */
export async function showDelivery(home: string, id: string): Promise<ShownDelivery> {
  return (await deliveriesJson(home, ['show', id])) as ShownDelivery;
}

/** All rows of `<home>/state.db`, read directly (WAL lets a reader in while the gateway writes). */
export async function readJournal(home: string): Promise<DeliveryRecord[]> {
  const store = openSqliteStore({ path: path.join(home, 'state.db') });
  try {
    return await store.list({ limit: 1_000_000 });
  } finally {
    await store.close();
  }
}

/** The journal row of `deliveryId` once it has finished (polls the SQLite file for up to 30 s). */
export async function finishedRow(home: string, deliveryId: string): Promise<DeliveryRecord> {
  let status = 'none';
  return waitFor(
    async () => {
      const row = (await readJournal(home)).find((r) => r.deliveryId === deliveryId);
      status = row?.status ?? 'none';
      return status !== 'queued' && status !== 'running' && row;
    },
    `${deliveryId} to finish`,
    { timeoutMs: 30_000, describe: () => `status ${status}` },
  );
}

/**
 * All rows of the journal once none is queued or running (polls for up to 30 s): a forge sees
 * the answer a moment before its attempt writes the final status.
 */
export async function settledJournal(home: string): Promise<DeliveryRecord[]> {
  return waitFor(
    async () => {
      const rows = await readJournal(home);
      return rows.every((r) => r.status !== 'queued' && r.status !== 'running') && rows;
    },
    'the journal to settle',
    { timeoutMs: 30_000 },
  );
}
