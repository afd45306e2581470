/**
 * The gateway's own endpoints on the webhook listener: `GET /health` (the process answers; the
 * pauses in force) and `GET /ready` (for orchestrators: the store answers and the gateway is not
 * draining). Their bodies are in `docs/contract.md#endpoints`.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { errorMessage } from './errors.js';
import type { Logger } from './logger.js';
import type { Pause } from './store.js';

/** What the two endpoints read of the gateway. */
export interface GatewayState {
  /** The pauses in force, as this process last read them (no store read per request). */
  pauses(): readonly Pause[];
  /** True once a drain (SIGTERM, `webhook-gateway drain`) has begun. */
  draining(): boolean;
  /** Resolves when the store answers a read; rejects otherwise. */
  probeStore(): Promise<unknown>;
}

/** How long `/ready` waits for the store before answering 503. */
const READY_STORE_TIMEOUT_MS = 2_000;

/** A pause as `/health` shows it: no reason, since `/health` has no authentication. */
function pauseForHealth(pause: Pause): { route: string | null; since: string } {
  return { route: pause.route, since: new Date(pause.since).toISOString() };
}

/** Resolves true when `probe` resolves within `ms`, false when it rejects or takes longer. */
async function answersWithin(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      probe().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function reply(ctx: Koa.Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = body;
}

/** Adds `GET /health` and `GET /ready` to the receiver's router. */
export function addHealthRoutes(router: Router, state: GatewayState, log: Logger): void {
  router.get('/health', (ctx) => {
    reply(ctx, 200, {
      status: 'ok',
      platform: 'webhook',
      paused: state.pauses().map(pauseForHealth),
    });
  });

  router.get('/ready', async (ctx) => {
    if (state.draining()) {
      reply(ctx, 503, { status: 'draining' });
      return;
    }
    const answers = await answersWithin(
      () =>
        state.probeStore().catch((error: unknown) => {
          log.warn({ err: errorMessage(error) }, 'not ready: the store did not answer');
          throw error;
        }),
      READY_STORE_TIMEOUT_MS,
    );
    if (!answers) {
      reply(ctx, 503, { status: 'unavailable', error: 'The store does not answer' });
      return;
    }
    // A drain may have begun while the store was read.
    reply(ctx, state.draining() ? 503 : 200, { status: state.draining() ? 'draining' : 'ready' });
  });
}
