#!/usr/bin/env node
/**
 * CPU µs of the log lines one delivery writes with the benchmark's config (`dry-run` agent, `log`
 * target), through the logger of each built checkout given, in interleaved rounds whose order
 * rotates: `accepted` (the receiver), the attempt's child logger, `running agent`, `agent answer`
 * (the `log` target) and `delivered`, each made as the gateway makes it and written to a log file.
 * A logger change is worth a few µs per delivery, under the noise of a whole-gateway A/B; this
 * measures it alone. Not part of `npm run bench`.
 *
 *   node bench/log-lines.mjs [--rounds=5] [--deliveries=20000] NAME=CHECKOUT ...
 *   node bench/log-lines.mjs before=/tmp/before after=.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { namedSpecs, numberOption } from './lib/args.mjs';
import { median } from './scenarios/throughput.mjs';

const args = process.argv.slice(2);
/** @param {string} name @param {number} fallback */
const option = (name, fallback) => numberOption(args, name, fallback);
const rounds = option('rounds', 5);
const deliveries = option('deliveries', 20_000);
const specs = namedSpecs(args);
if (specs.length === 0) {
  process.stderr.write('usage: node bench/log-lines.mjs [--rounds=N] NAME=CHECKOUT ...\n');
  process.exit(2);
}

/**
 * @typedef {{ info: (fields: object, msg: string) => void, child: (bindings: object) => Logger }} Logger
 * @typedef {{ log: Logger, ready: Promise<void>, flush: () => void }} GatewayLogger
 */

/** What one delivery logs, line by line, as `receiver.ts`, `attempt.ts` and `core-plugin.ts` do. */
const LINES = {
  /** @param {Logger} log @param {number} i */
  accepted: (log, i) =>
    log.info(
      {
        route: 'bench',
        delivery_id: `d-${i}`,
        event: 'pull_request',
        action: 'opened',
        scheme: 'forge',
      },
      'accepted',
    ),
  /** @param {Logger} log @param {number} i */
  child: (log, i) => log.child({ route: 'bench', delivery_id: `d-${i}` }),
  /** @param {Logger} log */
  'running agent': (log) => log.info({ attempt: 1, runner: 'dry-run' }, 'running agent'),
  /** @param {Logger} log @param {number} i */
  'agent answer': (log, i) =>
    log.info(
      { target: 'log', answer: `Review PR #${i}: Update the README with new information.` },
      'agent answer',
    ),
  /** @param {Logger} log */
  delivered: (log) => log.info({ target: 'log', attempt: 1 }, 'delivered'),
};

const homes = [];
/** @type {{ name: string, logger: GatewayLogger }[]} */
const loggers = [];
for (const [name, checkout = '.'] of specs) {
  const module = pathToFileURL(path.resolve(checkout, 'packages/core/dist/logger.js')).href;
  const { createLogger } = await import(module);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-log-lines-'));
  homes.push(home);
  /** @type {GatewayLogger} */
  const logger = createLogger({ home, level: 'info', tty: false });
  await logger.ready;
  loggers.push({ name: name ?? checkout, logger });
}

/** One delivery's lines, in order, as the gateway writes them. @param {Logger} log @param {number} i */
function delivery(log, i) {
  LINES.accepted(log, i);
  const attempt = LINES.child(log, i);
  LINES['running agent'](attempt, i);
  LINES['agent answer'](attempt, i);
  LINES.delivered(attempt, i);
}

/** Deliveries between two turns of the event loop: a saturated gateway answers a few per turn. */
const PER_TURN = 8;

/** @type {Record<string, Record<string, number[]>>} µs per line, by checkout and line */
const figures = {};
try {
  for (let round = 0; round < rounds + 1; round++) {
    const order = [
      ...loggers.slice(round % loggers.length),
      ...loggers.slice(0, round % loggers.length),
    ];
    for (const { name, logger } of order) {
      /** @param {string} what @param {number} micros */
      const record = (what, micros) => {
        // Round 0 warms up every logger's code.
        if (round > 0) ((figures[name] ??= {})[what] ??= []).push(micros);
      };
      for (const [line, write] of Object.entries(LINES)) {
        // Lines after the first come from the attempt's child logger, as in `attemptDelivery`.
        const log =
          line === 'accepted' || line === 'child'
            ? logger.log
            : logger.log.child({ route: 'bench', delivery_id: 'd' });
        const before = process.cpuUsage();
        for (let i = 0; i < deliveries; i++) write(log, i);
        logger.flush(); // the writes count: every thread's CPU, the file's writes included
        const used = process.cpuUsage(before);
        record(line, (used.user + used.system) / deliveries);
      }
      // Whole deliveries with the event loop turning between them, so that writes in flight
      // complete between lines as they do in the gateway.
      const before = process.cpuUsage();
      for (let i = 0; i < deliveries; i++) {
        delivery(logger.log, i);
        if (i % PER_TURN === PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
      }
      logger.flush();
      const used = process.cpuUsage(before);
      record('delivery', (used.user + used.system) / deliveries);
    }
  }
} finally {
  for (const { logger } of loggers) logger.flush();
  for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
}

const names = Object.keys(LINES);
process.stdout.write(
  `| checkout | ${names.join(' | ')} | sum | per delivery, ${PER_TURN} per event-loop turn |\n`,
);
process.stdout.write(`| --- | ${names.map(() => '---:').join(' | ')} | ---: | ---: |\n`);
for (const { name } of loggers) {
  const lines = names.map((line) => median(figures[name]?.[line] ?? []));
  const total = lines.reduce((sum, value) => sum + value, 0);
  const perDelivery = median(figures[name]?.delivery ?? []);
  process.stdout.write(
    `| ${name} | ${lines.map((value) => value.toFixed(2)).join(' | ')} | ${total.toFixed(1)} | ${perDelivery.toFixed(1)} |\n`,
  );
}
process.stdout.write(
  `\nCPU µs, medians of ${rounds} rounds of ${deliveries}: each line ${deliveries} times in a row, then whole deliveries\n`,
);
