/**
 * The gateway runs for months, and its memory is most of what an operator budgets for it. Left
 * alone, V8 lets a busy process's heap fill with several times its live size of garbage before a
 * full collection (on a machine with plenty of RAM it grows the old generation by up to 4× at a
 * time). `--heap-growing-percent` caps each growth of the old generation at 30%, so full
 * collections come before the garbage piles up. It replaced `--optimize-for-size`, which also
 * kept the heap small but made V8 reduce memory at every collection and cost about a fifth of
 * the gateway's CPU per delivery (`npm run bench`, issue 20).
 *
 * V8 reads this flag whenever it sets the next heap limit, so setting it once the process runs
 * takes effect. `WEBHOOK_GATEWAY_V8_DEFAULTS=0` leaves V8 as it is, for an operator who sets its
 * flags (`NODE_OPTIONS=--max-old-space-size=…`).
 */
import v8 from 'node:v8';

/** How much the old generation may grow at a time, in percent of its size after a collection. */
const HEAP_GROWING_PERCENT = 30;

export function favourMemoryFootprint(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.WEBHOOK_GATEWAY_V8_DEFAULTS === '0') return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
