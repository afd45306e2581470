/**
 * The outbox's sender: one loop per gateway that claims due messages from the store, POSTs each
 * signed and settles it. It runs beside the deliveries, never in an attempt: a slow or failing
 * receiver holds up its own messages only. Several senders on one shared store (Redis workers)
 * never hold one message at once (`Store.claimOutbox` leases it); a message whose sender died is
 * claimed again when its lease ends. At least once: a receiver drops a repeat by `webhook-id`.
 */
import {
  errorMessage,
  type GatewayTracer,
  type Logger,
  type OutboxMessage,
  type OutboxOutcome,
  type Store,
} from '@webhook-gateway/core';
import type { Destination } from './destinations.js';
import type { WebhookOptions } from './options.js';
import { retryDelayMs, type PostOutcome } from './post-outcome.js';
import type { SignedPost } from './post-signed.js';
import { tracedPost } from './post-span.js';

/** Sends one message; throws only when `signal` (the sender stopping) aborted it. */
export type Post = (post: SignedPost, signal: AbortSignal) => Promise<PostOutcome>;

export interface OutboxSenderOptions {
  store: Store;
  log: Logger;
  /** The destinations of the live config, by key (`destinationsOf`). */
  destinations: () => ReadonlyMap<string, Destination>;
  options: WebhookOptions;
  /** The POST; undici's by default (`post-signed.ts`, loaded at the first send). */
  post?: Post;
  /** Closes what `post` holds open (its connections). */
  closePost?: () => Promise<void>;
  now?: () => number;
  random?: () => number;
  /**
   * With `observability.otlp`: each POST is a span of its message's delivery's trace. None: no
   * tracing work at all.
   */
  tracer?: GatewayTracer;
  /** Told each message's fate once the store has it (for tests and metrics). */
  settled?: (message: OutboxMessage, settlement: Settlement) => void;
}

/** What became of a message: sent, dropped (a 4xx), to be tried again, or put off untried. */
export type Settlement = 'sent' | 'dropped' | 'retry' | 'defer';

/** How long a message of an unknown destination waits before it is looked at again. */
const UNKNOWN_DESTINATION_WAIT_MS = 60_000;

export class OutboxSender {
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  /** A receiver's `Retry-After`: no message goes to that destination before then. */
  private readonly holds = new Map<string, number>();
  /** Destinations warned about (no longer in the config), once each. */
  private readonly unknownWarned = new Set<string>();
  private wakeUp: (() => void) | undefined;
  /** A wake-up that came while the loop was not waiting: its next wait returns at once. */
  private woken = false;
  private loop: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;
  private post: Post | undefined;
  private loadingPost: Promise<Post> | undefined;
  private closePost: (() => Promise<void>) | undefined;
  private readonly now: () => number;
  private readonly leaseMs: number;

  constructor(private readonly deps: OutboxSenderOptions) {
    this.now = deps.now ?? Date.now;
    this.post = deps.post;
    this.closePost = deps.closePost;
    // Longer than any POST may take, so a live sender's claim never ends under it.
    this.leaseMs = deps.options.request_timeout_s * 1000 * 2 + 30_000;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks at the outbox now (an accept or an attempt just wrote to it). */
  nudge(): void {
    this.wake();
  }

  /**
   * Stops: the loop ends, POSTs under way are aborted and their messages released for the next
   * start (due at once, no try counted), and connections are closed.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopOnce();
    return this.stopped;
  }

  private async stopOnce(): Promise<void> {
    this.stopping.abort(new Error('the gateway is stopping'));
    this.wake();
    await this.loop;
    await Promise.all(this.inFlight);
    await this.closePost?.();
  }

  private get isStopping(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    const { concurrency, poll_interval_ms: pollMs } = this.deps.options;
    while (!this.isStopping) {
      // A config without outbound destinations reads nothing: messages left by an older config
      // wait (and expire) until one names a destination again.
      if (this.deps.destinations().size === 0) {
        await this.wait(pollMs);
        continue;
      }
      const free = concurrency - this.inFlight.size;
      let full = free <= 0;
      if (free > 0) {
        try {
          const claim = await this.deps.store.claimOutbox(this.now(), this.leaseMs, free);
          if (claim.expired > 0) {
            this.deps.log.warn(
              { expired: claim.expired },
              'outbound messages expired unsent after a day of tries; dropped',
            );
          }
          for (const message of claim.messages) this.launch(message);
          full = claim.messages.length === free;
        } catch (error) {
          if (this.isStopping) break;
          this.deps.log.error({ err: errorMessage(error) }, 'could not read the outbox');
        }
      }
      if (this.isStopping) break;
      // More may be due when the claim was full: go on once a POST ends. Otherwise wait for the
      // next poll, or for a nudge.
      await this.wait(full ? undefined : pollMs);
    }
  }

  private wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /** Resolves after `ms` (never, if undefined), on a nudge, a finished POST, or the stop. */
  private wait(ms: number | undefined): Promise<void> {
    if (this.woken || this.isStopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      const wakeUp = (): void => done();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        wakeUp();
      };
    });
  }

  private launch(message: OutboxMessage): void {
    const sending = this.send(message)
      .catch((error: unknown) => {
        this.deps.log.error(
          { message_id: message.id, destination: message.destination, err: errorMessage(error) },
          'could not settle an outbound message; it is tried again when its lease ends',
        );
      })
      .finally(() => {
        this.inFlight.delete(sending);
        this.wake();
      });
    this.inFlight.add(sending);
  }

  /** One message: POSTed unless its destination waits or is unknown, then settled. */
  private async send(message: OutboxMessage): Promise<void> {
    const { log } = this.deps;
    const now = this.now();
    const destination = this.deps.destinations().get(message.destination);
    if (!destination) {
      if (!this.unknownWarned.has(message.destination)) {
        this.unknownWarned.add(message.destination);
        log.warn(
          { destination: message.destination },
          'outbound messages wait for a destination the config no longer has; they are kept until they expire',
        );
      }
      await this.settle(message, 'defer', { kind: 'defer', at: now + UNKNOWN_DESTINATION_WAIT_MS });
      return;
    }
    const hold = this.holds.get(message.destination) ?? 0;
    if (hold > now) {
      await this.settle(message, 'defer', { kind: 'defer', at: hold });
      return;
    }
    const post = await this.poster();
    const signed = {
      url: destination.url,
      secret: destination.secret,
      id: message.id,
      body: message.body,
    };
    const { tracer } = this.deps;
    let outcome: PostOutcome;
    try {
      outcome = tracer
        ? await tracedPost(tracer, message, destination.url, () =>
            post(signed, this.stopping.signal),
          )
        : await post(signed, this.stopping.signal);
    } catch (error) {
      if (!this.isStopping) throw error;
      // Stopping: released, due at once for the next start; this try is not counted.
      await this.settle(message, 'defer', { kind: 'defer', at: this.now() });
      return;
    }
    const where = { message_id: message.id, origin: new URL(destination.url).origin };
    if (outcome.kind === 'sent') {
      await this.settle(message, 'sent', { kind: 'done' });
      log.debug({ ...where, status: outcome.status }, 'outbound message sent');
      return;
    }
    if (outcome.kind === 'give_up') {
      await this.settle(message, 'dropped', { kind: 'done' });
      log.error(
        { ...where, attempts: message.attempts + 1, reason: outcome.reason },
        'outbound message dropped',
      );
      return;
    }
    const after = this.now();
    const tries = message.attempts + 1;
    const { retry_base_ms: baseMs, retry_max_s: maxS } = this.deps.options;
    // The receiver's own word on when to come back wins over the backoff, for its other messages too.
    const at =
      outcome.retryAfterMs !== undefined
        ? after + outcome.retryAfterMs
        : after + retryDelayMs(tries, baseMs, maxS * 1000, this.deps.random);
    if (outcome.retryAfterMs !== undefined) this.holds.set(message.destination, at);
    await this.settle(message, 'retry', { kind: 'retry', at, error: outcome.reason });
    log.warn(
      { ...where, attempts: tries, reason: outcome.reason, retry_in_ms: at - after },
      'outbound message failed; will retry',
    );
  }

  private async settle(
    message: OutboxMessage,
    settlement: Settlement,
    outcome: OutboxOutcome,
  ): Promise<void> {
    if (await this.deps.store.settleOutbox(message, outcome)) {
      this.deps.settled?.(message, settlement);
    }
  }

  /** The POST: the injected one, else undici's, loaded at the first send. */
  private poster(): Promise<Post> {
    if (this.post) return Promise.resolve(this.post);
    this.loadingPost ??= import('./post-signed.js').then(({ SignedPoster }) => {
      const poster = new SignedPoster(this.deps.options.request_timeout_s * 1000);
      this.closePost = () => poster.close();
      this.post = (post, signal) => poster.post(post, signal);
      return this.post;
    });
    return this.loadingPost;
  }
}
