/**
 * A stream of signed pull-request deliveries with unique ids, a few in flight at once, that
 * keeps track of what the gateway answered, for tests that kill the gateway under it.
 */
import { fixture, sendForge } from './requests.js';

export interface DeliveryStream {
  /** Delivery ids answered 202 (committed to the journal), in order of the answers. */
  readonly accepted: string[];
  /** Ids whose request got no answer (the gateway died): journaled or not, nobody was told. */
  readonly unanswered: string[];
  /** Ids answered anything but 202, with the status. */
  readonly refused: { deliveryId: string; status: number }[];
  /** Sends nothing more; requests in flight finish. */
  stop(): void;
  /** Settles when every sender has stopped. */
  readonly done: Promise<void>;
}

export interface StreamOptions {
  url: string;
  route: string;
  secret: string;
  /** How many deliveries at most. */
  total: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** The delivery id of the `n`th delivery (from 0); unique per delivery. */
  deliveryIdOf: (n: number) => string;
  /** How many pull requests the deliveries are spread over (same-PR ones run in order). */
  pullRequests: number;
}

/** The opened-PR fixture, about pull request `number`. */
export function pullRequestBody(number: number, action = 'opened'): string {
  const payload = JSON.parse(fixture('forge/pull_request_opened.json').toString('utf8')) as {
    action: string;
    number: number;
    pull_request: { number: number };
  };
  payload.action = action;
  payload.number = number;
  payload.pull_request.number = number;
  return JSON.stringify(payload);
}

/** Starts sending at once; stops by itself at `total` or at the first request left unanswered. */
export function streamDeliveries(options: StreamOptions): DeliveryStream {
  const accepted: string[] = [];
  const unanswered: string[] = [];
  const refused: { deliveryId: string; status: number }[] = [];
  const bodies = Array.from({ length: options.pullRequests }, (_, i) => pullRequestBody(i + 1));
  let next = 0;
  let stopped = false;

  async function sender(): Promise<void> {
    while (!stopped && next < options.total) {
      const n = next++;
      const deliveryId = options.deliveryIdOf(n);
      try {
        const sent = await sendForge(options.url, options.route, {
          body: bodies[n % options.pullRequests] ?? '',
          secret: options.secret,
          event: 'pull_request',
          deliveryId,
        });
        if (sent.status === 202) accepted.push(deliveryId);
        else refused.push({ deliveryId, status: sent.status });
      } catch {
        unanswered.push(deliveryId);
        stopped = true;
      }
    }
  }

  const done = Promise.all(Array.from({ length: options.concurrency }, () => sender())).then(
    () => undefined,
  );
  return {
    accepted,
    unanswered,
    refused,
    stop: () => {
      stopped = true;
    },
    done,
  };
}
