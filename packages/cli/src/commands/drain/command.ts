/**
 * `webhook-gateway drain`: asks the gateway serving from the home to drain, as SIGTERM does (it
 * is SIGTERM, sent to the process id in `<home>/gateway.pid`): no new attempt starts, running
 * ones finish, then it exits. Waits for the exit, showing progress.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadContext } from '../../context.js';
import { processExists, pidFilePath, readPidFile } from '../../gateway-pid.js';
import { addHomeOptions } from '../../home-options.js';
import { parseOptions } from '../deliveries/options.js';

const drainOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
});

/** How often the gateway's exit is looked for, and how often progress is shown. */
const POLL_MS = 200;
const PROGRESS_MS = 5_000;
/** Beyond `shutdown_timeout_s`: what closing the listener, the plugins and the store may take. */
const EXIT_MARGIN_MS = 15_000;

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

async function drain(rawOptions: unknown): Promise<void> {
  const options = parseOptions(drainOptionsSchema, rawOptions);
  const context = await loadContext(options);
  const file = pidFilePath(context.home);
  const pid = readPidFile(context.home);
  if (pid === undefined) {
    throw new Error(`no gateway serves from ${context.home}: ${file} does not exist`);
  }
  if (!processExists(pid)) {
    throw new Error(
      `${file} names process ${pid}, which is not running (left by a gateway that was killed); nothing to drain`,
    );
  }
  const timeoutS = context.config.platforms.webhook.extra.shutdown_timeout_s;
  process.kill(pid, 'SIGTERM');
  print(
    `draining the gateway (pid ${pid}): no new attempts; running ones finish (at most ${timeoutS} s), then it exits`,
  );
  const started = Date.now();
  const deadline = started + timeoutS * 1000 + EXIT_MARGIN_MS;
  let shownAt = started;
  while (processExists(pid)) {
    if (Date.now() > deadline) {
      throw new Error(
        `the gateway (pid ${pid}) has not exited ${Math.round((Date.now() - started) / 1000)} s after SIGTERM; its log says why`,
      );
    }
    if (Date.now() - shownAt >= PROGRESS_MS) {
      shownAt = Date.now();
      print(`still draining (${Math.round((shownAt - started) / 1000)} s)`);
    }
    await sleep(POLL_MS);
  }
  print(`the gateway (pid ${pid}) drained and exited`);
}

/** Adds `drain`. */
export function registerDrainCommand(program: Command): void {
  addHomeOptions(
    program
      .command('drain')
      .description(
        'stop the gateway of this home gracefully (SIGTERM): running attempts finish, then it exits',
      ),
  ).action(async (options: unknown) => {
    await drain(options);
  });
}
