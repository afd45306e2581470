/**
 * `webhook subscribe|list|remove|test` as an operator uses them: exit codes, output, what is
 * stored, and a running gateway serving each change from its next request, without a restart.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  writeConfig,
  type ConfigObject,
  type StartedGateway,
} from '../support/gateway.js';
import { readAgentRecords, recordingAgent } from '../support/records.js';
import { fixture, sendForge } from '../support/requests.js';

const STATIC_SECRET = 'static-route-secret-0123456789';
const pullRequest = fixture('forge/pull_request_opened.json');
const push = fixture('forge/push.json');

interface ListedSubscription {
  name: string;
  events: string[];
  deliver: string;
  deliver_chat_id: string | null;
  description: string | null;
  secret: string;
  shadowed_by_static_route: boolean;
}

/** A port nothing listens on right now (the gateway binds it next; `webhook test` reads it). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function webhook(home: string, ...args: string[]) {
  return runCli(['webhook', ...args, '--home', home]);
}

async function listed(home: string): Promise<ListedSubscription[]> {
  const result = await webhook(home, 'list', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ListedSubscription[];
}

/** The secret `subscribe` printed the one time it generated it. */
function printedSecret(stdout: string): string {
  const match = /^ {2}secret +([0-9a-f]{64})$/m.exec(stdout);
  if (!match?.[1]) throw new Error(`no generated secret in:\n${stdout}`);
  return match[1];
}

describe('with a running gateway', () => {
  let gateway: StartedGateway;
  let home: string;
  let agentLog: string;

  beforeAll(async () => {
    home = makeHome();
    agentLog = path.join(home, 'agent.jsonl');
    const port = await freePort();
    gateway = await startGateway({
      home,
      config: {
        agent: recordingAgent(agentLog),
        platforms: {
          webhook: {
            extra: {
              port,
              rate_limit: 1000,
              routes: { fixed: { secret: STATIC_SECRET } },
            },
          },
        },
      },
    });
  });

  afterAll(async () => {
    await gateway.stop();
  });

  it('serves a new subscription from the next request, with the secret printed once', async () => {
    const created = await webhook(home, 'subscribe', 'reviews', '--events', 'pull_request');
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('created subscription "reviews": POST /webhooks/reviews');
    const secret = printedSecret(created.stdout);

    const sent = await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret,
      event: 'pull_request',
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ status: 'accepted', route: 'reviews' });
    const wrong = await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret: 'some-other-secret-000',
      event: 'pull_request',
    });
    expect(wrong.status).toBe(401);

    const list = await webhook(home, 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^reviews\s+pull_request\s+log\s+\*\*\*\*[0-9a-f]{4}\s/m);
    expect(list.stdout).not.toContain(secret);
  });

  it('changes only the fields given and keeps the secret', async () => {
    const created = await webhook(home, 'subscribe', 'pushes', '--description', 'pushes');
    const secret = printedSecret(created.stdout);
    const updated = await webhook(home, 'subscribe', 'pushes', '--events', 'push');
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain('updated subscription "pushes"');
    expect(updated.stdout).not.toContain(secret);
    expect(updated.stdout).toContain(`****${secret.slice(-4)}`);

    const stored = (await listed(home)).find((s) => s.name === 'pushes');
    expect(stored).toMatchObject({ events: ['push'], description: 'pushes', deliver: 'log' });

    const accepted = await sendForge(gateway.url, 'pushes', { body: push, secret, event: 'push' });
    expect(accepted.status).toBe(202);
    const ignored = await sendForge(gateway.url, 'pushes', {
      body: pullRequest,
      secret,
      event: 'pull_request',
    });
    expect(ignored.body).toEqual({ status: 'ignored', event: 'pull_request' });
  });

  it('uses a given --secret without printing it', async () => {
    const secret = 'operator-chosen-secret-987654321';
    const created = await webhook(home, 'subscribe', 'chosen', '--secret', secret);
    expect(created.code).toBe(0);
    expect(created.stdout).not.toContain(secret);
    const sent = await sendForge(gateway.url, 'chosen', { body: push, secret, event: 'push' });
    expect(sent.status).toBe(202);
  });

  it('`webhook test` signs a delivery with the subscription secret and prints the answer', async () => {
    await webhook(home, 'subscribe', 'tested', '--prompt', 'test of {subscription}');
    const result = await webhook(home, 'test', 'tested');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const [request, answer] = result.stdout.trim().split('\n');
    expect(request).toContain(`POST http://127.0.0.1:${gateway.port}/webhooks/tested  event test`);
    const deliveryId = /delivery (test-\S+)/.exec(request ?? '')?.[1];
    expect(answer).toBe(
      `202 {"status":"accepted","route":"tested","event":"test","delivery_id":"${deliveryId}"}`,
    );
    const record = await waitFor(
      () => readAgentRecords(agentLog).find((r) => r.deliveryId === deliveryId),
      'the agent run of the test delivery',
    );
    expect(record).toMatchObject({ route: 'tested', event: 'test', prompt: 'test of tested' });
  });

  it('`webhook test --payload --event --json` sends that payload and prints JSON', async () => {
    const result = await webhook(
      home,
      'test',
      'reviews',
      '--event',
      'issues',
      '--payload',
      '{"action":"opened"}',
      '--json',
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { status: number; body: unknown; event: string };
    expect(answer).toMatchObject({
      status: 200,
      event: 'issues',
      body: { status: 'ignored', event: 'issues' },
    });
  });

  it('stops serving a removed subscription from the next request', async () => {
    const created = await webhook(home, 'subscribe', 'gone');
    const secret = printedSecret(created.stdout);
    const removed = await webhook(home, 'remove', 'gone');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('removed subscription "gone"');
    const sent = await sendForge(gateway.url, 'gone', { body: push, secret, event: 'push' });
    expect(sent.status).toBe(404);
    expect((await listed(home)).map((s) => s.name)).not.toContain('gone');

    const again = await webhook(home, 'remove', 'gone');
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      'no subscription named "gone" (see webhook-gateway webhook list)',
    );
  });

  it('stores a subscription named like a static route but says the static route wins', async () => {
    const created = await webhook(home, 'subscribe', 'fixed');
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('has a static route "fixed"; it wins');
    const secret = printedSecret(created.stdout);
    expect((await listed(home)).find((s) => s.name === 'fixed')?.shadowed_by_static_route).toBe(
      true,
    );
    expect((await webhook(home, 'list')).stdout).toContain(
      'note: static routes of config.yaml win over: fixed',
    );

    const bySubscription = await sendForge(gateway.url, 'fixed', {
      body: push,
      secret,
      event: 'push',
    });
    expect(bySubscription.status).toBe(401);
    const byStatic = await sendForge(gateway.url, 'fixed', {
      body: push,
      secret: STATIC_SECRET,
      event: 'push',
    });
    expect(byStatic.status).toBe(202);

    const tested = await webhook(home, 'test', 'fixed');
    expect(tested.code).toBe(1);
    expect(tested.stderr.trim()).toMatch(
      /"fixed" is a static route of .*only for dynamic subscriptions/,
    );
  });
});

describe('without a gateway', () => {
  function homeWith(config: ConfigObject | string): string {
    const home = makeHome();
    writeConfig(home, config);
    return home;
  }

  it('refuses an invalid name as a usage error (exit 2, one line)', async () => {
    const home = makeHome();
    const result = await webhook(home, 'subscribe', 'Not_Valid');
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('invalid subscription name "Not_Valid"');
    expect(fs.existsSync(path.join(home, 'state.db'))).toBe(false);
  });

  it('refuses an unknown target as a usage error and stores nothing', async () => {
    const home = makeHome();
    const result = await webhook(home, 'subscribe', 'ci', '--deliver', 'pager');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown target "pager" (--deliver)');
    expect(await listed(home)).toEqual([]);
  });

  it('stores an alias target under its canonical name', async () => {
    const home = homeWith({
      platforms: {
        telegram: {
          enabled: true,
          token: 'fake-token',
          home_channel: '-1001',
          api_base: 'http://127.0.0.1:9',
        },
      },
    });
    const result = await webhook(
      home,
      'subscribe',
      'chat',
      '--deliver',
      'telegram',
      '--deliver-chat-id',
      '-42',
    );
    expect(result.code).toBe(0);
    expect((await listed(home))[0]).toMatchObject({
      deliver: 'messenger_a',
      deliver_chat_id: '-42',
    });
  });

  it('refuses a target whose platform is not enabled, naming the key (exit 1)', async () => {
    const home = makeHome();
    const result = await webhook(home, 'subscribe', 'chat', '--deliver', 'slack');
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'cannot subscribe "chat": --deliver: delivers to messenger_c, but platforms.messenger_c.enabled is not true',
    );
    expect(await listed(home)).toEqual([]);
  });

  it('prints JSON for scripts with the secret masked, and the generated one once', async () => {
    const home = makeHome();
    const created = await webhook(home, 'subscribe', 'ci', '--events', 'push, ping', '--json');
    expect(created.code).toBe(0);
    const printed = JSON.parse(created.stdout) as { generated_secret: string; secret: string };
    expect(printed.generated_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(printed.secret).toBe(`****${printed.generated_secret.slice(-4)}`);
    const [stored] = await listed(home);
    expect(stored).toMatchObject({ name: 'ci', events: ['push', 'ping'], secret: printed.secret });
    expect(JSON.stringify(await listed(home))).not.toContain(printed.generated_secret);
  });

  it('generates a different strong secret for each subscription', async () => {
    const home = makeHome();
    const first = printedSecret((await webhook(home, 'subscribe', 'one')).stdout);
    const second = printedSecret((await webhook(home, 'subscribe', 'two')).stdout);
    expect(first).not.toBe(second);
  });

  it('says there are none', async () => {
    const result = await webhook(makeHome(), 'list');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No subscriptions.');
  });

  it('`webhook test` says in one line that no gateway answers (exit 1)', async () => {
    const home = homeWith({ platforms: { webhook: { extra: { port: await freePort() } } } });
    expect((await webhook(home, 'subscribe', 'ci')).code).toBe(0);
    const result = await webhook(home, 'test', 'ci');
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^no gateway answers at http:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED/);
  });

  it('`webhook test` refuses an unknown subscription and a payload that is not a JSON object', async () => {
    const home = makeHome();
    const unknown = await webhook(home, 'test', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no subscription named "nobody"');
    const badPayload = await webhook(home, 'test', 'nobody', '--payload', '[1]');
    expect(badPayload.code).toBe(2);
    expect(badPayload.stderr.trim()).toBe('--payload must be a JSON object');
  });

  it.each([['subscribe', 'ci'], ['list'], ['remove', 'ci'], ['test', 'ci']])(
    '`webhook %s` refuses with a hint while the webhook platform is disabled',
    async (...args) => {
      const home = homeWith({ platforms: { webhook: { enabled: false } } });
      const result = await webhook(home, ...args);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(
        /^the webhook platform is disabled \(platforms\.webhook\.enabled is not true in .*config\.yaml\); set it to true/,
      );
      expect(result.stdout).toBe('');
    },
  );
});

afterAll(() => cleanupHomes());
