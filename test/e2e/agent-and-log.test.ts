/** The prompt template, skills, the `command` agent and the `log` target, through the running gateway. */
import fs from 'node:fs';
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
import { fixture, newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'template-secret-1234567';
const SKILL = '# Review\n\nQuote the lines you comment on.\n';
let gateway: StartedGateway;
let agentLog: string;

const TEMPLATE =
  'PR #{number} "{pull_request.title}" by {pull_request.user.login}; draft={pull_request.draft}; ' +
  'merged_by={pull_request.merged_by}; keep {missing.path}; labels={pull_request.labels}; head={pull_request.head.repo.owner.login}';

beforeAll(async () => {
  const home = makeHome();
  agentLog = path.join(home, 'agent.jsonl');
  fs.mkdirSync(path.join(home, 'skills', 'x'), { recursive: true });
  fs.writeFileSync(path.join(home, 'skills', 'x', 'SKILL.md'), SKILL);
  gateway = await startGateway({
    home,
    config: {
      agent: recordingAgent(agentLog),
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            routes: {
              templated: { prompt: TEMPLATE },
              plain: {},
              reexpand: { prompt: 'title: {title}' },
              skilled: { prompt: 'Review PR #{number}', skills: ['missing-one', 'x'] },
              'skilled-dry-run': {
                prompt: 'Review PR #{number}',
                skills: ['x'],
                agent: { runner: 'dry-run' },
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

async function runAndRecord(route: string, body: Buffer | string, event: string) {
  const deliveryId = newDeliveryId();
  const sent = await sendForge(gateway.url, route, { body, secret: SECRET, event, deliveryId });
  expect(sent.status).toBe(202);
  return waitFor(
    () => readAgentRecords(agentLog).find((r) => r.deliveryId === deliveryId),
    `agent run of ${deliveryId}`,
  );
}

describe('prompt template', () => {
  it('renders nested paths, numbers, booleans, null, objects and keeps missing paths', async () => {
    const payload = JSON.parse(fixture('forge/pull_request_opened.json').toString('utf8')) as {
      number: number;
      pull_request: {
        title: string;
        user: { login: string };
        labels: unknown[];
        head: { repo: { owner: { login: string } } };
      };
    };
    const record = await runAndRecord(
      'templated',
      fixture('forge/pull_request_opened.json'),
      'pull_request',
    );
    const pr = payload.pull_request;
    expect(record.prompt).toBe(
      `PR #${payload.number} "${pr.title}" by ${pr.user.login}; draft=false; merged_by=null; keep {missing.path}; ` +
        `labels=${JSON.stringify(pr.labels, null, 2)}; head=${pr.head.repo.owner.login}`,
    );
  });

  it('never expands placeholders inside substituted text', async () => {
    const record = await runAndRecord(
      'reexpand',
      JSON.stringify({ title: 'see {secret} and {title}', secret: 'x' }),
      'issues',
    );
    expect(record.prompt).toBe('title: see {secret} and {title}');
  });

  it('gives the event, route and payload as indented JSON when the route has no prompt', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', commits: [{ id: 'abc' }] });
    const record = await runAndRecord('plain', body, 'push');
    expect(record.prompt).toContain('push');
    expect(record.prompt).toContain('plain');
    expect(record.prompt).toContain(JSON.stringify(JSON.parse(body), null, 2));
  });
});

describe('command agent', () => {
  it('gets the prompt on stdin and WEBHOOK_ROUTE, WEBHOOK_EVENT, WEBHOOK_DELIVERY_ID in its env', async () => {
    const record = await runAndRecord('plain', '{"n":1}', 'issues');
    expect(record.route).toBe('plain');
    expect(record.event).toBe('issues');
    expect(record.deliveryId).toMatch(/^\d+-\d+-\d+$/);
  });
});

describe('skills', () => {
  it("gives a command agent the route's first skill found before the template output, and warns about the one missing before it", async () => {
    const record = await runAndRecord('skilled', '{"number":7}', 'pull_request');
    // Not framed: the command runner's program gets the template output as it was made.
    expect(record.prompt).toBe(
      'Skill "x":\n# Review\n\nQuote the lines you comment on.\n\nReview PR #7',
    );
    const warning = await waitFor(
      () =>
        gateway
          .logLines()
          .find(
            (l) => l.delivery_id === record.deliveryId && String(l.msg).includes('missing-one'),
          ),
      'the missing-skill warning',
    );
    expect(warning).toMatchObject({ route: 'skilled', level: 40 });
    expect(String(warning.msg)).toMatch(/^skill "missing-one" was not found/);
  });

  it('answers a dry-run with the skill and the template output, unframed', async () => {
    const deliveryId = newDeliveryId();
    const body = '{"number":8}';
    const sent = await sendForge(gateway.url, 'skilled-dry-run', {
      body,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    const line = await waitFor(
      () =>
        gateway.logLines().find((l) => l.msg === 'agent answer' && l.delivery_id === deliveryId),
      'the dry-run answer in the log',
    );
    expect(line.answer).toBe(
      'Skill "x":\n# Review\n\nQuote the lines you comment on.\n\nReview PR #8',
    );
  });
});

describe('log target', () => {
  it('writes the answer to the log with route and delivery id', async () => {
    const record = await runAndRecord('plain', '{"n":2}', 'issues');
    const line = await waitFor(
      () =>
        gateway
          .logLines()
          .find((l) => l.msg === 'agent answer' && l.delivery_id === record.deliveryId),
      'the answer in the log',
    );
    expect(line).toMatchObject({
      route: 'plain',
      answer: `answer for ${record.deliveryId}`,
      target: 'log',
    });
  });
});

describe('empty and SKIP answers', () => {
  it('still delivers them', async () => {
    for (const mode of ['empty', 'skip']) {
      const home = makeHome();
      const log = path.join(home, 'agent.jsonl');
      const other = await startGateway({
        home,
        config: {
          agent: recordingAgent(log, mode),
          platforms: { webhook: { extra: { secret: SECRET, routes: { r: {} } } } },
        },
      });
      try {
        const deliveryId = newDeliveryId();
        await sendForge(other.url, 'r', {
          body: '{"a":1}',
          secret: SECRET,
          event: 'push',
          deliveryId,
        });
        const line = await waitFor(
          () =>
            other.logLines().find((l) => l.msg === 'agent answer' && l.delivery_id === deliveryId),
          `the ${mode} answer delivered`,
        );
        expect(line.answer).toBe(mode === 'empty' ? '' : 'SKIP');
      } finally {
        await other.stop();
      }
    }
  });
});
