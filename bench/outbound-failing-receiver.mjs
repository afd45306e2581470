/**
 * Outbound webhooks under a receiver that fails for its first seconds: the real CLI (SQLite
 * journal, a route answering without a model to the `webhook` target, `extra.outbound` hearing
 * its `accepted` and `delivered` events) sends to a receiver on 127.0.0.1 that answers 503 for
 * its first `--window-s` seconds, then 200, verifying every signature with the
 * `standard-webhooks` verifier. Deliveries arrive at `--rate` per second for `--deliveries`.
 * Prints, once every message arrived (or `--deadline-s` passed): messages expected, lost (goal 0),
 * duplicates (a `webhook-id` answered 2xx more than once), tries refused, bad signatures, and how
 * long after the window the last message arrived.
 *
 * Usage (after `npm run build`):
 *   node bench/outbound-failing-receiver.mjs [--window-s=30] [--deliveries=80] [--rate=2] [--deadline-s=300]
 */
import http from 'node:http';
import { verifyStandardWebhook } from '@webhook-gateway/auth-standard-webhooks';
import { numberOption } from './lib/args.mjs';
import { killAll, makeHome, removeHome, startGateway } from './lib/proc.mjs';

const args = process.argv.slice(2);
const windowMs = numberOption(args, 'window-s', 30) * 1000;
const deliveries = numberOption(args, 'deliveries', 80);
const rate = numberOption(args, 'rate', 2);
const deadlineMs = numberOption(args, 'deadline-s', 300) * 1000;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** Per delivery: its `accepted` and `delivered` events, and its answer. */
const MESSAGES_PER_DELIVERY = 3;

/** @type {{ id: string, at: number, status: number, verified: boolean }[]} */
const received = [];
let failUntil = Infinity;

const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now();
    const header = (name) => /** @type {string | undefined} */ (req.headers[name]);
    const check = verifyStandardWebhook(
      {
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature') ?? '',
        body: Buffer.concat(chunks),
      },
      [SECRET],
      at,
      300,
    );
    const status = at < failUntil ? 503 : 200;
    received.push({ id: header('webhook-id') ?? '', at, status, verified: check.ok });
    res.writeHead(status).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(undefined)));
const origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (receiver.address()).port}`;

const home = makeHome();
const config = {
  agent: { runner: 'none' },
  platforms: {
    webhook_target: { endpoints: { ops: { url: `${origin}/answers`, secret: SECRET } } },
    webhook: {
      extra: {
        host: '127.0.0.1',
        port: 0,
        // The measure is of the outbox, not of the limiter refusing deliveries.
        rate_limit: 100_000,
        outbound: [{ url: `${origin}/events`, secret: SECRET, events: ['accepted', 'delivered'] }],
        routes: {
          bench: {
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

function accepted() {
  const unique = new Set();
  let duplicates = 0;
  for (const request of received) {
    if (request.status !== 200) continue;
    if (unique.has(request.id)) duplicates++;
    else unique.add(request.id);
  }
  return { unique, duplicates };
}

const gateway = await startGateway(home, config);
try {
  const started = Date.now();
  failUntil = started + windowMs;
  process.stderr.write(
    `receiver fails for ${windowMs / 1000} s; sending ${deliveries} deliveries at ${rate}/s\n`,
  );
  for (let n = 0; n < deliveries; n++) {
    const due = started + (n * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    const response = await fetch(`${gateway.url}/webhooks/bench`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': `bench-${started}-${n}`,
      },
      body: JSON.stringify({ action: 'opened', number: n }),
    });
    if (response.status !== 202) throw new Error(`delivery ${n} answered ${response.status}`);
  }
  const expected = deliveries * MESSAGES_PER_DELIVERY;
  while (accepted().unique.size < expected && Date.now() - started < deadlineMs) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { unique, duplicates } = accepted();
  const lastAt = Math.max(...received.filter((r) => r.status === 200).map((r) => r.at));
  const figures = {
    window_s: windowMs / 1000,
    deliveries,
    messages_expected: expected,
    messages_received: unique.size,
    lost: expected - unique.size,
    duplicates,
    tries_refused_503: received.filter((r) => r.status === 503).length,
    bad_signatures: received.filter((r) => !r.verified).length,
    last_message_s_after_window: Number(((lastAt - failUntil) / 1000).toFixed(1)),
  };
  console.log(JSON.stringify(figures));
  process.exitCode = figures.lost === 0 && figures.bad_signatures === 0 ? 0 : 1;
} finally {
  await gateway.stop();
  receiver.close();
  removeHome(home);
  killAll();
}
