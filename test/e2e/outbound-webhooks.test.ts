/**
 * Outbound webhooks through the real CLI: `extra.outbound`'s lifecycle events and the `webhook`
 * target's answers reach a receiver on 127.0.0.1 signed as Standard Webhooks (checked there with
 * the `standard-webhooks` verifier), from the journal's outbox, on SQLite and on Redis. A
 * restart loses none; a receiver that fails for its first seconds loses none either (the
 * duplicates are reported); two workers on one Redis send each message once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  startReceiver,
  type TestReceiver,
} from '../../packages/deliver-webhook/src/test-support/receiver.js';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  writeConfig,
  type StartedGateway,
} from '../support/gateway.js';
import { startRole, type RoleProcess } from '../support/redis-gateways.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { newDeliveryId, post } from '../support/requests.js';

const redis = await findTestRedis();
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** What each delivery sends: its `accepted` and `delivered` events, and its answer. */
const MESSAGES_PER_DELIVERY = 3;

const receivers: TestReceiver[] = [];
const processes: (StartedGateway | RoleProcess)[] = [];
const prefixes: string[] = [];

afterAll(async () => {
  for (const running of processes.splice(0)) await running.stop();
  for (const receiver of receivers.splice(0)) await receiver.close();
  if (redis) for (const prefix of prefixes) await deleteKeys(redis.url(), prefix);
  await redis?.stop();
  cleanupHomes();
});

async function receiver(handler?: Parameters<typeof startReceiver>[1]): Promise<TestReceiver> {
  const started = await startReceiver(SECRET, handler);
  receivers.push(started);
  return started;
}

/** A config whose route `reviews` answers `PR #<number>` (no model) to the receiver. */
function outboundConfig(origin: string, store?: Record<string, unknown>) {
  return {
    ...(store ? { store } : {}),
    agent: { runner: 'none' },
    platforms: {
      webhook_target: { endpoints: { ops: { url: `${origin}/answers`, secret: SECRET } } },
      webhook: {
        extra: {
          outbound: [
            {
              url: `${origin}/events`,
              secret: SECRET,
              events: ['accepted', 'delivered', 'failed', 'dead'],
              routes: ['reviews'],
              include_answer: true,
            },
          ],
          routes: {
            reviews: {
              secret: 'INSECURE_NO_AUTH',
              prompt: 'PR #{number}',
              deliver: 'webhook',
              deliver_extra: { endpoint: 'ops' },
            },
          },
        },
      },
    },
  };
}

function redisStore(): Record<string, unknown> {
  if (!redis) throw new Error('no Redis');
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  return { kind: 'redis', url: redis.url({ prefix }) };
}

async function sendPullRequest(url: string, number: number): Promise<string> {
  const deliveryId = newDeliveryId();
  const sent = await post(`${url}/webhooks/reviews`, JSON.stringify({ action: 'opened', number }), {
    'Content-Type': 'application/json',
    'X-GitHub-Event': 'pull_request',
    'X-GitHub-Delivery': deliveryId,
  });
  expect(sent.status).toBe(202);
  return deliveryId;
}

/** Waits until the receiver accepted `count` different messages (by `webhook-id`). */
async function acceptedAll(target: TestReceiver, count: number, timeoutMs = 60_000) {
  return waitFor(
    () => (target.accepted().unique.size >= count ? target.accepted() : undefined),
    `${count} messages accepted by the receiver`,
    { timeoutMs },
  );
}

/** Every delivery id's messages, as `type` lists: what arrived, whoever sent it. */
function typesByDelivery(target: TestReceiver): Map<string, string[]> {
  const byDelivery = new Map<string, string[]>();
  for (const message of target.accepted().unique.values()) {
    const id = String(message.json.data.delivery_id);
    byDelivery.set(id, [...(byDelivery.get(id) ?? []), message.json.type].sort());
  }
  return byDelivery;
}

const EXPECTED_TYPES = ['delivery.accepted', 'delivery.answer', 'delivery.delivered'];

describe('outbound webhooks on the embedded journal', { timeout: 180_000 }, () => {
  it('sends the lifecycle events and the answer, each signed as the verifier checks it', async () => {
    const target = await receiver();
    const gateway = await startGateway({ config: outboundConfig(target.origin) });
    processes.push(gateway);
    const deliveryId = await sendPullRequest(gateway.url, 7);
    await acceptedAll(target, MESSAGES_PER_DELIVERY);
    expect(target.received.every((r) => r.verified)).toBe(true);
    expect(typesByDelivery(target).get(deliveryId)).toEqual(EXPECTED_TYPES);
    const byType = new Map([...target.accepted().unique.values()].map((r) => [r.json.type, r]));
    expect(byType.get('delivery.answer')).toMatchObject({
      path: '/answers',
      json: { data: { route: 'reviews', delivery_id: deliveryId, answer: 'PR #7' } },
    });
    expect(byType.get('delivery.delivered')).toMatchObject({
      path: '/events',
      json: { data: { status: 'delivered', attempt: 1, answer: 'PR #7' } },
    });
    // No secret in the log: neither the signing secret nor a signature.
    const log = JSON.stringify(gateway.logLines());
    expect(log).not.toContain(SECRET.slice('whsec_'.length));
    await gateway.stop();
  });

  it('loses none across a restart: stopped with messages pending, started again, all arrive', async () => {
    await restartLosesNone();
  });

  it('loses none while the receiver fails its first 5 s (503); duplicates reported', async () => {
    const windowMs = 5_000;
    let failUntil = Infinity;
    const target = await receiver(() => ({ status: Date.now() < failUntil ? 503 : 200 }));
    const gateway = await startGateway({ config: outboundConfig(target.origin) });
    processes.push(gateway);
    // The window opens as the gateway serves, with the first delivery.
    failUntil = Date.now() + windowMs;
    const deliveries: string[] = [];
    // 20 deliveries over the first 6 s: most of their messages meet the failing receiver.
    for (let n = 0; n < 20; n++) {
      deliveries.push(await sendPullRequest(gateway.url, 100 + n));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const expected = deliveries.length * MESSAGES_PER_DELIVERY;
    const { unique, duplicates } = await acceptedAll(target, expected, 90_000);
    const lost = expected - unique.size;
    const refused = target.received.filter((r) => r.status === 503).length;
    process.stdout.write(
      `[outbound] receiver failing its first ${windowMs / 1000} s: ${expected} messages, ` +
        `${lost} lost, ${duplicates} duplicates, ${refused} tries refused with 503\n`,
    );
    expect(lost).toBe(0);
    expect(refused).toBeGreaterThan(0);
    for (const id of deliveries) expect(typesByDelivery(target).get(id)).toEqual(EXPECTED_TYPES);
    expect(target.received.every((r) => r.verified)).toBe(true);
    await gateway.stop();
  });
});

/** Stops a gateway while every message is pending (the receiver refuses them), then restarts it. */
async function restartLosesNone(store?: () => Record<string, unknown>): Promise<void> {
  let down = true;
  const target = await receiver(() => ({ status: down ? 503 : 200 }));
  const home = makeHome();
  writeConfig(home, outboundConfig(target.origin, store?.()));
  const first = await startGateway({ home });
  const deliveries = [
    await sendPullRequest(first.url, 1),
    await sendPullRequest(first.url, 2),
    await sendPullRequest(first.url, 3),
  ];
  const expected = deliveries.length * MESSAGES_PER_DELIVERY;
  // Every message tried (and refused) at least once: all of them are in the outbox.
  await waitFor(
    () => (new Set(target.received.map((r) => r.id)).size >= expected ? true : undefined),
    'every message to be tried once',
    { timeoutMs: 30_000 },
  );
  expect(await first.stop()).toBe(0);
  down = false;
  const second = await startGateway({ home });
  processes.push(second);
  const { unique } = await acceptedAll(target, expected);
  expect(unique.size).toBe(expected);
  for (const id of deliveries) expect(typesByDelivery(target).get(id)).toEqual(EXPECTED_TYPES);
  await second.stop();
}

describe.skipIf(!redis)('outbound webhooks on Redis', { timeout: 180_000 }, () => {
  it('loses none across a restart', async () => {
    await restartLosesNone(redisStore);
  });

  it("sends each message once with a receiver and two workers' senders on one outbox", async () => {
    const target = await receiver();
    const home = makeHome();
    const configFile = writeConfig(home, outboundConfig(target.origin, redisStore()));
    const front = await startRole('receiver', configFile);
    processes.push(front);
    processes.push(await startRole('worker', configFile), await startRole('worker', configFile));
    const deliveries: string[] = [];
    for (let n = 0; n < 10; n++) deliveries.push(await sendPullRequest(front.url ?? '', 200 + n));
    const expected = deliveries.length * MESSAGES_PER_DELIVERY;
    const { unique } = await acceptedAll(target, expected);
    expect(unique.size).toBe(expected);
    // Each claim is leased: no two senders ever POSTed the same message.
    expect(target.received).toHaveLength(expected);
    for (const id of deliveries) expect(typesByDelivery(target).get(id)).toEqual(EXPECTED_TYPES);
  });
});
