/**
 * `webhook-gateway deliveries list|show|replay`: read the journal and queue a delivery again.
 * They open the same store as the gateway and work while it runs.
 */
import { isPaused } from '@webhook-gateway/core';
import { CommanderError, Option, type Command } from 'commander';
import { addHomeOptions } from '../../home-options.js';
import { pausedHeader } from '../pause/pause-text.js';
import { withJournal } from './journal.js';
import { formatDeliveryList } from './list-format.js';
import {
  DEFAULT_LIST_LIMIT,
  DELIVERY_STATUSES,
  OptionsError,
  listOptionsSchema,
  parseDeliveryIdArgument,
  parseOptions,
  deliveryOptionsSchema,
} from './options.js';
import { findDelivery, replayDelivery, type ReplayResult } from './replay.js';
import { standingsOf } from './queue-standings.js';
import { formatDeliveryDetail } from './show-format.js';
import { deliveryDetail, deliverySummary } from './view.js';

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** Turns a bad option into one line on stderr and exit code 2 (bin.ts maps CommanderError). */
async function usageChecked(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    throw new CommanderError(2, 'webhook-gateway.usage', error.message);
  }
}

async function listDeliveries(rawOptions: unknown): Promise<void> {
  const options = parseOptions(listOptionsSchema, rawOptions);
  const filter = {
    ...(options.route === undefined ? {} : { route: options.route }),
    ...(options.status === undefined ? {} : { status: options.status }),
    limit: options.limit ?? DEFAULT_LIST_LIMIT,
  };
  const now = Date.now();
  const { records, pauses, standings } = await withJournal(options, async (store, context) => {
    const listed = await store.list(filter);
    return {
      records: listed,
      pauses: await store.pauses(),
      standings: await standingsOf(store, context.config, listed, now),
    };
  });
  if (options.json) printJson(records.map((record) => deliverySummary(record, standings, now)));
  else {
    // What holds the listed route (or any route) back, above the table.
    const holding = pauses.filter(
      (pause) => options.route === undefined || isPaused([pause], options.route),
    );
    print(
      [...pausedHeader(holding), formatDeliveryList(records, filter, standings, now)].join('\n'),
    );
  }
}

async function showDelivery(rawId: unknown, rawOptions: unknown): Promise<void> {
  const id = parseDeliveryIdArgument(rawId);
  const options = parseOptions(deliveryOptionsSchema, rawOptions);
  const now = Date.now();
  const { record, findings, standings } = await withJournal(options, async (store, context) => {
    const found = await findDelivery(store, id);
    // The findings its route keeps for the same pull or merge request, with their fates.
    return {
      record: found,
      findings: found.orderKey === null ? [] : await store.findings(found.orderKey),
      standings: await standingsOf(store, context.config, [found], now),
    };
  });
  if (options.json) printJson(deliveryDetail(record, findings, standings, now));
  else print(formatDeliveryDetail(record, findings, standings.get(record.id), now));
}

function replayLine(result: ReplayResult): string {
  const { record } = result;
  const which = `delivery ${record.id} (route ${record.route}, delivery id ${record.deliveryId})`;
  return result.replayed
    ? `${which} queued again: status ${record.status}`
    : `${which} is already queued: status ${record.status}`;
}

async function replay(rawId: unknown, rawOptions: unknown): Promise<void> {
  const id = parseDeliveryIdArgument(rawId);
  const options = parseOptions(deliveryOptionsSchema, rawOptions);
  const result = await withJournal(options, (store) => replayDelivery(store, id, Date.now()));
  if (options.json) printJson({ replayed: result.replayed, ...deliverySummary(result.record) });
  else print(replayLine(result));
}

/** Adds `deliveries list`, `deliveries show <id>` and `deliveries replay <id>`. */
export function registerDeliveriesCommands(program: Command): void {
  const deliveries = program
    .command('deliveries')
    .description('list, inspect and replay journaled deliveries');

  addHomeOptions(
    deliveries
      .command('list')
      .description('list journaled deliveries, newest first')
      .addOption(new Option('--route <route>', 'only this route'))
      .addOption(
        new Option('--status <status>', `only this status: ${DELIVERY_STATUSES.join(' | ')}`),
      )
      .addOption(new Option('--limit <n>', `at most n rows (default ${DEFAULT_LIST_LIMIT})`)),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (options: unknown) => {
      await usageChecked(() => listDeliveries(options));
    });

  addHomeOptions(
    deliveries
      .command('show')
      .description('everything the journal kept about one delivery')
      .argument('<id>', "the journal id or the sender's delivery id"),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (id: unknown, options: unknown) => {
      await usageChecked(() => showDelivery(id, options));
    });

  addHomeOptions(
    deliveries
      .command('replay')
      .description('queue a delivered or failed delivery again; a running gateway picks it up')
      .argument('<id>', "the journal id or the sender's delivery id"),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (id: unknown, options: unknown) => {
      await usageChecked(() => replay(id, options));
    });
}
