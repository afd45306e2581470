/**
 * One signed POST of an outbox message with undici: the Standard Webhooks headers of
 * `@webhook-gateway/auth-standard-webhooks` (the code its verifier checks with), bounded in time,
 * redirects not followed, and errors that name the receiver's origin only (a path may hold a
 * token). Loaded at the sender's first POST.
 */
import { standardWebhookHeaders } from '@webhook-gateway/auth-standard-webhooks';
import { Agent, request } from 'undici';
import { outcomeOfAnswer, type PostOutcome } from './post-outcome.js';

/** What one POST sends. */
export interface SignedPost {
  url: string;
  secret: string;
  /** The message id: `webhook-id`, the same on every try. */
  id: string;
  body: string;
}

/** A network failure in a few words, from its error code; never the error's own text. */
function networkReason(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = cause?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'network error';
}

/** POSTs with connections kept alive per receiver; `close()` ends them. */
export class SignedPoster {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number) {
    this.agent = new Agent({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /**
   * Sends `post` signed at `now`; never throws for what the receiver or the network did (that is
   * the outcome), only when `signal` (the sender stopping) aborts it.
   */
  async post(post: SignedPost, signal: AbortSignal, now = Date.now()): Promise<PostOutcome> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const origin = new URL(post.url).origin;
    try {
      const response = await request(post.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'webhook-gateway',
          ...standardWebhookHeaders(post.secret, post.id, now, post.body),
        },
        body: post.body,
        signal: AbortSignal.any([signal, timeout]),
      });
      // The answer's body is not read: only its status and Retry-After matter.
      await response.body.dump();
      const retryAfter = response.headers['retry-after'];
      return outcomeOfAnswer(
        response.statusCode,
        Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        Date.now(),
      );
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timeout.aborted) {
        return {
          kind: 'retry',
          reason: `${origin} did not answer within ${this.timeoutMs / 1000} s`,
        };
      }
      return { kind: 'retry', reason: `could not reach ${origin}: ${networkReason(error)}` };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
