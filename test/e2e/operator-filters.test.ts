/**
 * Routing rules beyond event types (issue 6, item 2) through the running gateway, with real
 * payloads: `actions` and `filters` answer 200 ignored with a reason and never reach the agent.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { readAgentRecords, recordingAgent } from '../support/records.js';
import { fixture, newDeliveryId, sendAltforge, sendForge, type Sent } from '../support/requests.js';

const SECRET = 'filters-secret-0123456789';
const opened = fixture('forge/pull_request_opened.json');
const closed = fixture('forge/pull_request_closed.json');
const labeled = fixture('forge/pull_request_labeled.json');
const synchronize = fixture('forge/pull_request_synchronize.json');
const mergeRequest = fixture('altforge/merge_request_open.json');

let gateway: StartedGateway;
let agentLog: string;

beforeAll(async () => {
  const home = makeHome();
  agentLog = path.join(home, 'agent.jsonl');
  gateway = await startGateway({
    home,
    args: ['--log-level', 'debug'],
    config: {
      agent: recordingAgent(agentLog),
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            rate_limit: 1000,
            routes: {
              reviews: { events: ['pull_request'], actions: ['opened', 'synchronize'] },
              ready: { events: ['pull_request'], filters: { 'pull_request.draft': false } },
              drafts: { events: ['pull_request'], filters: { 'pull_request.draft': true } },
              'main-or-master': {
                filters: {
                  'pull_request.base.ref': ['main', 'master'],
                  'pull_request.state': 'open',
                },
              },
              'main-or-develop': { filters: { 'pull_request.base.ref': ['main', 'develop'] } },
              'number-as-text': { filters: { number: '2' } },
              'missing-path': { filters: { 'pull_request.no_such_field': 'x' } },
              'both-rules': { actions: ['opened'], filters: { 'pull_request.draft': true } },
              'mr-open': { events: ['merge_request'], actions: ['open', 'reopen'] },
              'mr-update': { events: ['merge_request'], actions: ['update'] },
              'mr-target': {
                events: ['merge_request'],
                filters: {
                  'object_attributes.target_branch': 'master',
                  'object_attributes.draft': false,
                },
              },
            },
          },
        },
      },
    },
  });
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

function pullRequest(route: string, body: Buffer): Promise<Sent & { deliveryId: string }> {
  const deliveryId = newDeliveryId();
  return sendForge(gateway.url, route, {
    body,
    secret: SECRET,
    event: 'pull_request',
    deliveryId,
  }).then((sent) => ({ ...sent, deliveryId }));
}

function mergeRequestTo(route: string): Promise<Sent & { deliveryId: string }> {
  const deliveryId = newDeliveryId();
  return sendAltforge(gateway.url, route, { body: mergeRequest, token: SECRET, deliveryId }).then(
    (sent) => ({ ...sent, deliveryId }),
  );
}

/** Waits until the agent ran for every id of `ran`; then none of `ignored` may be among its runs. */
async function expectAgentRan(ran: string[], ignored: string[]): Promise<void> {
  await waitFor(
    () => {
      const ids = new Set(readAgentRecords(agentLog).map((r) => r.deliveryId));
      return ran.every((id) => ids.has(id)) ? true : undefined;
    },
    `agent runs of ${ran.join(', ')}`,
  );
  const ids = readAgentRecords(agentLog).map((r) => r.deliveryId);
  for (const id of ignored) expect(ids).not.toContain(id);
}

const IGNORED_ACTION = { status: 'ignored', event: 'pull_request', reason: 'action' };
const IGNORED_FILTER = { status: 'ignored', event: 'pull_request', reason: 'filter' };

describe('actions', () => {
  it('accepts the listed actions and ignores the others with reason "action", before the agent', async () => {
    const accepted = [
      await pullRequest('reviews', opened),
      await pullRequest('reviews', synchronize),
    ];
    const ignored = [await pullRequest('reviews', closed), await pullRequest('reviews', labeled)];
    for (const sent of accepted) expect(sent.status).toBe(202);
    for (const sent of ignored) {
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual(IGNORED_ACTION);
    }
    await expectAgentRan(
      accepted.map((s) => s.deliveryId),
      ignored.map((s) => s.deliveryId),
    );
  });

  it('compares the altforge object_attributes.action', async () => {
    const open = await mergeRequestTo('mr-open');
    const update = await mergeRequestTo('mr-update');
    expect(open.status).toBe(202);
    expect(update.status).toBe(200);
    expect(update.body).toEqual({
      status: 'ignored',
      event: 'Merge Request Hook',
      reason: 'action',
    });
    await expectAgentRan([open.deliveryId], [update.deliveryId]);
  });

  it('answers an event outside `events` as ignored without a reason, as the spec says', async () => {
    const sent = await sendForge(gateway.url, 'reviews', {
      body: fixture('forge/ping.json'),
      secret: SECRET,
      event: 'ping',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: 'ignored', event: 'ping' });
  });
});

describe('filters', () => {
  it('matches pull_request.draft: false and ignores it where true is required', async () => {
    const ready = await pullRequest('ready', opened);
    const draft = await pullRequest('drafts', opened);
    expect(ready.status).toBe(202);
    expect(draft.status).toBe(200);
    expect(draft.body).toEqual(IGNORED_FILTER);
    await expectAgentRan([ready.deliveryId], [draft.deliveryId]);
  });

  it('accepts a value in a list of allowed values, and every filter must match', async () => {
    const listed = await pullRequest('main-or-master', opened);
    const unlisted = await pullRequest('main-or-develop', opened);
    expect(listed.status).toBe(202);
    expect(unlisted.body).toEqual(IGNORED_FILTER);
    await expectAgentRan([listed.deliveryId], [unlisted.deliveryId]);
  });

  it('matches a number given as text in YAML', async () => {
    expect((await pullRequest('number-as-text', opened)).status).toBe(202);
  });

  it('ignores a payload that lacks a filtered path', async () => {
    expect((await pullRequest('missing-path', opened)).body).toEqual(IGNORED_FILTER);
  });

  it('checks actions before filters', async () => {
    expect((await pullRequest('both-rules', closed)).body).toEqual(IGNORED_ACTION);
    expect((await pullRequest('both-rules', opened)).body).toEqual(IGNORED_FILTER);
  });

  it('filters altforge payloads by object_attributes paths', async () => {
    const sent = await mergeRequestTo('mr-target');
    expect(sent.status).toBe(202);
    await expectAgentRan([sent.deliveryId], []);
  });
});

describe('the log', () => {
  it('records an ignored delivery at DEBUG with its route, delivery id and reason', async () => {
    const sent = await pullRequest('reviews', closed);
    const line = await waitFor(
      () => gateway.logLines().find((l) => l.delivery_id === sent.deliveryId),
      'the ignored line',
    );
    expect(line).toMatchObject({ level: 20, msg: 'ignored', route: 'reviews', reason: 'action' });
    expect(gateway.logLines().filter((l) => l.delivery_id === sent.deliveryId)).toHaveLength(1);
  });
});
