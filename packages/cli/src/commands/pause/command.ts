/**
 * `webhook-gateway pause [--route R] [--reason "…"]` and `resume [--route R]`: a pause is kept in
 * the journal (the config's `store:`), so it holds across restarts and for every worker on a
 * shared store; a running gateway reads it within about a second.
 */
import { CommanderError, Option, type Command } from 'commander';
import { z } from 'zod';
import type { Store } from '@webhook-gateway/core';
import { loadContext } from '../../context.js';
import { addHomeOptions, type HomeOptions } from '../../home-options.js';
import { openStore } from '../../open-store.js';
import { openJournal } from '../deliveries/journal.js';
import { OptionsError, parseOptions } from '../deliveries/options.js';
import { knownRoutes, pauseRoute, resumeRoute } from './pause-actions.js';
import { pauseJson, pauseText, resumeText } from './pause-text.js';

const homeShape = {
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
};

const pauseOptionsSchema = z.object({
  ...homeShape,
  route: z.string().min(1, { error: 'must not be empty' }).optional(),
  reason: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(500, { error: 'must be at most 500 characters' })
    .optional(),
  json: z.boolean().default(false),
});

const resumeOptionsSchema = z.object({
  ...homeShape,
  route: z.string().min(1, { error: 'must not be empty' }).optional(),
  json: z.boolean().default(false),
});

function print(text: string): void {
  process.stdout.write(`${text}\n`);
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

/**
 * The journal a pause is written to: the gateway's own store, created when the gateway never
 * started (the pause then holds from its first start). A `memory` store lives inside one
 * process, so nothing outside it can pause it.
 */
async function openForPause(options: HomeOptions) {
  const context = await loadContext(options);
  if (context.config.store.kind === 'memory') {
    throw new Error(
      'store.kind is "memory": its queue lives only inside the gateway process, so a pause cannot reach it; use sqlite or redis (store.kind)',
    );
  }
  return { context, store: await openStore(context.config.store, context) };
}

async function closing<T>(store: Store, use: () => Promise<T>): Promise<T> {
  try {
    return await use();
  } finally {
    await store.close();
  }
}

async function pause(rawOptions: unknown): Promise<void> {
  const options = parseOptions(pauseOptionsSchema, rawOptions);
  const { context, store } = await openForPause(options);
  const result = await closing(store, async () =>
    pauseRoute(store, {
      route: options.route ?? null,
      reason: options.reason ?? null,
      known: await knownRoutes(context.config, store),
      now: Date.now(),
    }),
  );
  if (options.json)
    print(JSON.stringify({ added: result.added, pause: pauseJson(result.pause) }, null, 2));
  else print(pauseText(result));
}

async function resume(rawOptions: unknown): Promise<void> {
  const options = parseOptions(resumeOptionsSchema, rawOptions);
  const store = await openJournal(options);
  const route = options.route ?? null;
  const result = await closing(store, () => resumeRoute(store, route));
  if (options.json) {
    print(
      JSON.stringify(
        {
          lifted: result.lifted.map(pauseJson),
          still_paused: result.stillPaused ? pauseJson(result.stillPaused) : null,
        },
        null,
        2,
      ),
    );
  } else print(resumeText(result, route));
}

/** Adds `pause`. */
export function registerPauseCommand(program: Command): void {
  addHomeOptions(
    program
      .command('pause')
      .description(
        'stop starting deliveries (every route, or one): they are still accepted and journaled; running attempts finish',
      )
      .addOption(new Option('--route <route>', 'pause only this route'))
      .addOption(new Option('--reason <text>', 'why, shown wherever the pause is')),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (options: unknown) => {
      await usageChecked(() => pause(options));
    });
}

/** Adds `resume`. */
export function registerResumeCommand(program: Command): void {
  addHomeOptions(
    program
      .command('resume')
      .description(
        'lift a pause: the queued deliveries start in order (without --route: every pause)',
      )
      .addOption(new Option('--route <route>', "lift only this route's pause")),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (options: unknown) => {
      await usageChecked(() => resume(options));
    });
}
