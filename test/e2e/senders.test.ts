/**
 * Every sender family through the built CLI: a payload shaped like the sender's real one reaches
 * the agent with the event and delivery id its scheme reads, a replay outside the window is
 * refused, and a stripped or renamed header never downgrades to another scheme.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupHomes, runCli } from '../support/gateway.js';
import { finishedRow, showDelivery } from '../support/journal-read.js';
import {
  startRecordingGateway,
  webhookHome,
  type RecordingGateway,
} from '../support/recording-gateway.js';
import { fixture, newDeliveryId, post, type Sent } from '../support/requests.js';

const SECRET = 'sender-secret-0123456789';
const SVIX_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let gateway: RecordingGateway;

const hex = (secret: string, bytes: Buffer | string) =>
  createHmac('sha256', secret).update(bytes).digest('hex');
const nowS = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  gateway = await startRecordingGateway({
    secret: SECRET,
    routes: {
      gitea: { prompt: 'gitea {_gateway.route} PR #{number}: {pull_request.title}' },
      bitbucket: { prompt: 'bitbucket PR {pullrequest.title}' },
      svix: { secret: SVIX_SECRET, prompt: 'svix {type}\n{_gateway.raw}' },
      linear: { prompt: 'linear {type} {action}: {data.title}', schemes: ['linear'] },
      deploys: { prompt: 'generic {status}', schemes: ['generic'] },
      pushes: { prompt: 'since [{_gateway.previous_head_sha}]', supersede: true },
    },
  });
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

function send(route: string, body: Buffer | string, headers: Record<string, string>) {
  return post(`${gateway.url}/webhooks/${route}`, body, {
    'Content-Type': 'application/json',
    ...headers,
  });
}

/** The journal's word on which scheme verified a delivery. */
async function schemeOf(sent: Sent): Promise<string | null> {
  return (await showDelivery(gateway.home, String(sent.body.delivery_id))).authScheme;
}

describe('Gitea and Forgejo', () => {
  const body = fixture('gitea/pull_request_opened.json');

  it('delivers a Gitea pull_request to the agent, read from the X-Gitea headers', async () => {
    const deliveryId = newDeliveryId();
    const sent = await send('gitea', body, {
      'X-Gitea-Event': 'pull_request',
      'X-Gitea-Delivery': deliveryId,
      'X-Gitea-Signature': hex(SECRET, body),
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'pull_request', delivery_id: deliveryId });
    const run = await gateway.agentRun(deliveryId);
    expect(run.prompt).toContain('gitea gitea PR #1: Add License File');
    expect(await schemeOf(sent)).toBe('gitea');
    // No timestamp to check: the same delivery sent again is a duplicate, never a second run.
    const again = await send('gitea', body, {
      'X-Gitea-Event': 'pull_request',
      'X-Gitea-Delivery': deliveryId,
      'X-Gitea-Signature': hex(SECRET, body),
    });
    expect(again.body).toEqual({ status: 'duplicate', delivery_id: deliveryId });
  });

  it('delivers a Forgejo delivery read from the X-Forgejo headers', async () => {
    const forgejo = fixture('gitea/pull_request_reopened.forgejo.json');
    const deliveryId = newDeliveryId();
    const sent = await send('gitea', forgejo, {
      'X-Forgejo-Event': 'pull_request',
      'X-Forgejo-Delivery': deliveryId,
      'X-Forgejo-Signature': hex(SECRET, forgejo),
    });
    expect(sent.status).toBe(202);
    await gateway.agentRun(deliveryId);
  });

  it('refuses a request whose Gitea signature was stripped, leaving the sha1 X-Hub-Signature', async () => {
    const sent = await send('gitea', body, {
      'X-Gitea-Event': 'pull_request',
      'X-Hub-Signature': `sha1=${createHmac('sha1', SECRET).update(body).digest('hex')}`,
    });
    expect(sent.status).toBe(401);
  });
});

describe('Bitbucket', () => {
  it('delivers a Cloud pullrequest:created with X-Request-UUID as its id', async () => {
    const body = fixture('bitbucket/pullrequest_created.json');
    const deliveryId = newDeliveryId();
    const sent = await send('bitbucket', body, {
      'X-Event-Key': 'pullrequest:created',
      'X-Request-UUID': deliveryId,
      'X-Hub-Signature': `sha256=${hex(SECRET, body)}`,
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'pullrequest:created', delivery_id: deliveryId });
    expect((await gateway.agentRun(deliveryId)).event).toBe('pullrequest:created');
    expect(await schemeOf(sent)).toBe('bitbucket');
  });

  it('delivers a Data Center pr:opened with X-Request-Id as its id', async () => {
    const body = fixture('bitbucket/pr_opened.json');
    const deliveryId = newDeliveryId();
    const sent = await send('bitbucket', body, {
      'X-Event-Key': 'pr:opened',
      'X-Request-Id': deliveryId,
      'X-Hub-Signature': `sha256=${hex(SECRET, body)}`,
    });
    expect(sent.body).toMatchObject({ status: 'accepted', event: 'pr:opened' });
    await gateway.agentRun(deliveryId);
  });

  it('refuses a stripped X-Event-Key and a sha1 signature', async () => {
    const body = fixture('bitbucket/pullrequest_created.json');
    const stripped = await send('bitbucket', body, {
      'X-Hub-Signature': `sha256=${hex(SECRET, body)}`,
    });
    expect(stripped.status).toBe(401);
    const sha1 = await send('bitbucket', body, {
      'X-Event-Key': 'pullrequest:created',
      'X-Hub-Signature': `sha1=${createHmac('sha1', SECRET).update(body).digest('hex')}`,
    });
    expect(sha1.status).toBe(401);
  });
});

describe('Standard Webhooks', () => {
  const body = fixture('standard-webhooks/contact_created.json');
  const key = Buffer.from(SVIX_SECRET.slice('whsec_'.length), 'base64');
  const sign = (id: string, ts: number) =>
    `v1,${createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64')}`;

  it('delivers a message to the agent with its type as the event and the raw payload', async () => {
    const id = `msg_${newDeliveryId()}`;
    const ts = nowS();
    const sent = await send('svix', body, {
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${sign(id, ts)}`,
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'contact.created', delivery_id: id });
    const run = await gateway.agentRun(id);
    expect(run.prompt).toContain('svix contact.created');
    expect(run.prompt).toContain(JSON.stringify(JSON.parse(body.toString()), null, 2));
    expect(await schemeOf(sent)).toBe('standard-webhooks');
  });

  it('refuses a replay outside the 300 s window and a stripped timestamp', async () => {
    const id = `msg_${newDeliveryId()}`;
    const old = nowS() - 301;
    const replay = await send('svix', body, {
      'webhook-id': id,
      'webhook-timestamp': String(old),
      'webhook-signature': sign(id, old),
    });
    expect(replay.status).toBe(401);
    const stripped = await send('svix', body, {
      'webhook-id': id,
      'webhook-signature': sign(id, nowS()),
    });
    expect(stripped.status).toBe(401);
  });
});

describe('Linear', () => {
  const recorded = fixture('linear/issue_create.json').toString('utf8');
  const RECORDED_AT = 1681207187330;
  const issueAt = (ms: number) => Buffer.from(recorded.replace(String(RECORDED_AT), String(ms)));

  it('delivers an Issue create to the agent', async () => {
    const body = issueAt(Date.now());
    const deliveryId = newDeliveryId();
    const sent = await send('linear', body, {
      'Linear-Event': 'Issue',
      'Linear-Delivery': deliveryId,
      'Linear-Signature': hex(SECRET, body),
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'Issue', delivery_id: deliveryId });
    const run = await gateway.agentRun(deliveryId);
    expect(run.prompt).toContain('linear Issue create: Very small font in tooltip');
    expect(await schemeOf(sent)).toBe('linear');
  });

  it('refuses the recorded request replayed as recorded, more than 60 s later', async () => {
    const body = Buffer.from(recorded);
    const sent = await send('linear', body, {
      'Linear-Event': 'Issue',
      'Linear-Delivery': newDeliveryId(),
      'Linear-Signature': hex(SECRET, body),
    });
    expect(sent.status).toBe(401);
  });

  it('refuses the replay renamed to a scheme without a window, on a route of schemes: [linear]', async () => {
    const body = Buffer.from(recorded);
    for (const headers of <Record<string, string>[]>[
      { 'X-Gitea-Signature': hex(SECRET, body), 'X-Gitea-Event': 'Issue' },
      { 'X-Hub-Signature-256': `sha256=${hex(SECRET, body)}`, 'X-GitHub-Event': 'Issue' },
    ]) {
      expect((await send('linear', body, headers)).status).toBe(401);
    }
  });
});

describe('generic HMAC and Bearer', () => {
  const body = '{"status":"deployed","service":"api"}';
  const v2 = (ts: number) => hex(SECRET, `${ts}.${body}`);

  it('delivers a V2-signed request with its event and request id', async () => {
    const deliveryId = newDeliveryId();
    const ts = nowS();
    const sent = await send('deploys', body, {
      'X-Webhook-Signature-V2': v2(ts),
      'X-Webhook-Timestamp': String(ts),
      'X-Webhook-Event': 'deploy',
      'X-Request-ID': deliveryId,
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'deploy', delivery_id: deliveryId });
    expect((await gateway.agentRun(deliveryId)).prompt).toContain('generic deployed');
    expect(await schemeOf(sent)).toBe('generic');
  });

  it("delivers a Bearer request under the route's name as its event", async () => {
    const deliveryId = newDeliveryId();
    const sent = await send('deploys', body, {
      Authorization: `Bearer ${SECRET}`,
      'X-Request-ID': deliveryId,
    });
    expect(sent.body).toMatchObject({ status: 'accepted', event: 'deploys' });
  });

  it('refuses an old timestamp, and a bad or timestamp-less V2 beside a valid Bearer token', async () => {
    const old = nowS() - 301;
    const stale = await send('deploys', body, {
      'X-Webhook-Signature-V2': v2(old),
      'X-Webhook-Timestamp': String(old),
    });
    expect(stale.status).toBe(401);
    const bad = await send('deploys', body, {
      'X-Webhook-Signature-V2': hex('wrong', `${nowS()}.${body}`),
      'X-Webhook-Timestamp': String(nowS()),
      Authorization: `Bearer ${SECRET}`,
    });
    expect(bad.status).toBe(401);
    const stripped = await send('deploys', body, {
      'X-Webhook-Signature-V2': v2(nowS()),
      Authorization: `Bearer ${SECRET}`,
    });
    expect(stripped.status).toBe(401);
  });

  // Hermes Agent's test_invalid_signature_does_not_fall_back_to_bearer, on a route of every scheme
  // and on one of schemes: [generic]: each wrong signature beside a valid Bearer token is refused.
  it('invalid signature does not fall back to Bearer', async () => {
    const zeros = '0'.repeat(64);
    const cases: Record<string, string>[] = [
      { 'svix-signature': 'v1,invalid' },
      { 'webhook-signature': 'v1,invalid' },
      { 'linear-signature': zeros },
      { 'X-Hub-Signature-256': `sha256=${zeros}` },
      { 'X-Gitlab-Token': 'wrong' },
      { 'X-Gitea-Signature': zeros },
      { 'X-Hub-Signature': `sha256=${zeros}`, 'X-Event-Key': 'pullrequest:created' },
      { 'X-Webhook-Signature-V2': zeros },
      { 'X-Webhook-Signature-V2': zeros, 'X-Webhook-Timestamp': 'invalid' },
      { 'X-Webhook-Signature-V2': zeros, 'X-Webhook-Timestamp': '1' },
      { 'X-Webhook-Signature': zeros },
    ];
    const bearer = { Authorization: `Bearer ${SECRET}` };
    for (const route of ['pushes', 'deploys']) {
      expect((await send(route, body, bearer)).status).toBe(202);
      for (const headers of cases) {
        const sent = await send(route, body, { ...headers, ...bearer });
        expect({ route, headers, status: sent.status }).toEqual({ route, headers, status: 401 });
      }
    }
  });

  it('answers hostile signature headers with 401, never 500', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'X-Webhook-Signature-V2': 'zz', 'X-Webhook-Timestamp': 'NaN' },
      { 'X-Webhook-Signature-V2': v2(nowS()), 'X-Webhook-Timestamp': '1e99' },
      { Authorization: 'Bearer ' },
    ]) {
      expect((await send('deploys', body, headers)).status).toBe(401);
    }
  });
});

describe('a route restricted to its schemes', () => {
  it('refuses a valid forge signature on a route of schemes: [generic]', async () => {
    const body = fixture('forge/pull_request_opened.json');
    const sent = await send('deploys', body, {
      'X-Forge-Event': 'pull_request',
      'X-Forge-Signature-256': `sha256=${hex(SECRET, body)}`,
    });
    expect(sent.status).toBe(401);
  });

  it('config validate names an unknown scheme and the loaded ones', async () => {
    const home = webhookHome({ secret: SECRET, routes: { r: { schemes: ['forge', 'svix'] } } });
    const result = await runCli(['config', 'validate', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('platforms.webhook.extra.routes.r.schemes.1');
    expect(result.stderr).toContain(
      'loaded schemes: standard-webhooks, gitea, bitbucket, linear, forge, altforge, generic',
    );
  });
});

describe("Each sender's pull request: one order key, and the last reviewed head", () => {
  /** The fixture with its head commit moved to `sha`, as a push to the pull request sends it. */
  function pushed(file: string, headPath: string, sha: string): Buffer {
    const payload = JSON.parse(fixture(file).toString('utf8')) as Record<string, unknown>;
    const keys = headPath.split('.');
    const last = keys.pop() ?? '';
    let at = payload;
    for (const key of keys) at = at[key] as Record<string, unknown>;
    at[last] = sha;
    return Buffer.from(JSON.stringify(payload));
  }

  const senders = [
    {
      name: 'Gitea',
      file: 'gitea/pull_request_opened.json',
      headPath: 'pull_request.head.sha',
      head: '2eba238e33607c1fa49253182e9fff42baafa1eb',
      orderKey: 'pushes|jcitizen/my-repo|1',
      headers: (id: string, body: Buffer) => ({
        'X-Gitea-Event': 'pull_request',
        'X-Gitea-Delivery': id,
        'X-Gitea-Signature': hex(SECRET, body),
      }),
    },
    {
      name: 'Forgejo',
      file: 'gitea/pull_request_reopened.forgejo.json',
      headPath: 'pull_request.head.sha',
      head: '36b5813240a9d2daa29b05046d56a53e18f39a3e',
      orderKey: 'pushes|test_it/test_ci_thing|1',
      headers: (id: string, body: Buffer) => ({
        'X-Forgejo-Event': 'pull_request',
        'X-Forgejo-Delivery': id,
        'X-Forgejo-Signature': hex(SECRET, body),
      }),
    },
    {
      name: 'Bitbucket Cloud',
      file: 'bitbucket/pullrequest_created.json',
      headPath: 'pullrequest.source.commit.hash',
      head: '507a576e59b3',
      orderKey: 'pushes|brydzewski/foo|1',
      headers: (id: string, body: Buffer) => ({
        'X-Event-Key': 'pullrequest:created',
        'X-Request-UUID': id,
        'X-Hub-Signature': `sha256=${hex(SECRET, body)}`,
      }),
    },
    {
      name: 'Bitbucket Data Center',
      file: 'bitbucket/pr_opened.json',
      headPath: 'pullRequest.fromRef.latestCommit',
      head: 'ef8755f06ee4b28c96a847a95cb8ec8ed6ddd1ca',
      orderKey: 'pushes|PROJ/repository|1',
      headers: (id: string, body: Buffer) => ({
        'X-Event-Key': 'pr:opened',
        'X-Request-Id': id,
        'X-Hub-Signature': `sha256=${hex(SECRET, body)}`,
      }),
    },
  ];

  it.each(senders)(
    '$name: a push after a delivered review is told the head that review saw',
    async (sender) => {
      const first = fixture(sender.file);
      const firstId = newDeliveryId();
      expect((await send('pushes', first, sender.headers(firstId, first))).status).toBe(202);
      const reviewed = await finishedRow(gateway.home, firstId);
      expect(reviewed).toMatchObject({ status: 'delivered', orderKey: sender.orderKey });

      const next = pushed(sender.file, sender.headPath, 'f'.repeat(40));
      const nextId = newDeliveryId();
      expect((await send('pushes', next, sender.headers(nextId, next))).status).toBe(202);
      expect((await gateway.agentRun(nextId)).prompt).toContain(`since [${sender.head}]`);
    },
  );
});
