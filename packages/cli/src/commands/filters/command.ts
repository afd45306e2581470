/**
 * `webhook-gateway filters test --route R payload.json [--event E] [--header K:V]…`: a route's
 * rules on one payload, without a gateway: each filter clause's verdict, then the answer the
 * receiver would give.
 */
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { CommanderError, Option, type Command } from 'commander';
import { errorMessage } from '@webhook-gateway/core';
import {
  InFileLists,
  evaluateFilters,
  eventTypeOf,
  inFilePaths,
  inFileWarnings,
  payloadAction,
  routeVerdict,
} from '@webhook-gateway/core/runtime';
import { z } from 'zod';
import { loadContext } from '../../context.js';
import { addHomeOptions } from '../../home-options.js';
import { formatVerdict, type RouteAnswer } from './verdict-tree.js';

const optionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  route: z.string().min(1),
  event: z.string().min(1).optional(),
  header: z.array(z.string()).default([]),
  json: z.boolean().default(false),
});

class UsageError extends Error {}

/** `--header Name:value` pairs as the receiver sees them (lower-case names). */
export function parseHeaders(pairs: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header ${pair}: expected Name:value`);
    headers[pair.slice(0, colon).trim().toLowerCase()] = pair.slice(colon + 1).trim();
  }
  return headers;
}

function readPayloadFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: ${errorMessage(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`${file}: expected a JSON object`);
  return parsed as Record<string, unknown>;
}

async function testFilters(file: string, raw: unknown): Promise<void> {
  const options = optionsSchema.parse(raw);
  const context = await loadContext(options);
  const routes = context.config.platforms.webhook.extra.routes;
  const route = Object.prototype.hasOwnProperty.call(routes, options.route)
    ? routes[options.route]
    : undefined;
  if (!route) {
    throw new UsageError(
      `--route ${options.route}: no such route (routes: ${Object.keys(routes).join(', ') || 'none'})`,
    );
  }
  const payload = readPayloadFile(file);
  const headers = parseHeaders(options.header);
  const event = options.event ?? eventTypeOf(headers, payload);
  const action = payloadAction(payload);
  for (const warning of inFileWarnings(context.config, context.home))
    if (warning.path.endsWith(`.${options.route}.filters`))
      process.stderr.write(`warning: ${warning.path}: ${warning.message}\n`);
  const lists = new InFileLists(context.home);
  await lists.refresh(inFilePaths(route.filters));
  const values = (relative: string) => lists.values(relative);
  const input = { event, action, payload, headers };
  // Evaluated once: the regexes' time limit is the receiver's, spent once.
  const evaluation = evaluateFilters(route.filters, input, values);
  const { clauses, timedOut } = evaluation;
  const { reason } = routeVerdict(route, input, values, evaluation);
  const answer: RouteAnswer = reason ? { status: 'ignored', reason } : { status: 'accepted' };
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ route: options.route, event, action, clauses, timedOut, answer }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(
      `${formatVerdict(options.route, event, action, clauses, answer, timedOut)}\n`,
    );
  }
}

/** Adds `filters test`. */
export function registerFiltersCommands(program: Command): void {
  const filters = program.command('filters').description("try a route's filters on a payload");
  addHomeOptions(
    filters
      .command('test')
      .description(
        "print each filter clause's verdict on a payload and the route's answer, without a gateway",
      )
      .argument('<payload.json>', 'the payload, a JSON object')
      .addOption(new Option('--route <route>', 'the route whose rules apply').makeOptionMandatory())
      .addOption(new Option('--event <event>', 'the event type (default: from the headers)'))
      .addOption(
        new Option('--header <name:value>', 'a request header (repeatable)').argParser(
          (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
        ),
      ),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (file: string, options: unknown) => {
      try {
        await testFilters(file, options);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        process.stderr.write(`error: ${error.message}\n`);
        throw new CommanderError(2, 'webhook-gateway.usage', error.message);
      }
    });
}
