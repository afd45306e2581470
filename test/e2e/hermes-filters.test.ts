/**
 * Hermes Agent's filter language through the running gateway, with Hermes' own
 * adapter tests translated: `tests/gateway/test_webhook_adapter.py`
 * (`TestPayloadFilters.test_filter_accepts_nested_any_and_in_file`) and the webhook intake tests'
 * `TestFilterAuthority.test_regex_filter_preserves_normal_search_semantics` and
 * `test_pathological_regex_is_timed_out_outside_the_gateway_process`. Also: `in_file`
 * read again when it changes, headers in any case, refusal at start with the key path, and the
 * `filters test` dry run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome, runCli, startGateway, waitFor } from '../support/gateway.js';
import {
  startRecordingGateway,
  webhookHome,
  type RecordingGateway,
} from '../support/recording-gateway.js';
import { newDeliveryId, post, type Sent } from '../support/requests.js';

let gateway: RecordingGateway;
let home: string;

const routes = {
  // Hermes' route, as its test writes it.
  waha: {
    secret: 'INSECURE_NO_AUTH',
    filters: [
      { field: 'payload.fromMe', equals: false },
      {
        any: [
          { field: 'payload.chatId', in_file: '~/.hermes/data/watchlist.json' },
          { field: 'payload.id.remote', in_file: '~/.hermes/data/watchlist.json' },
        ],
      },
    ],
    prompt: 'Message from {payload.chatId}: {payload.body}',
  },
  releases: {
    secret: 'INSECURE_NO_AUTH',
    filters: { field: 'ref', regex: '^refs/heads/(main|release-\\d+)$' },
  },
  // Hermes' pathological filter: `(a+)+$` on 50,000 a's and a `!` never ends unless stopped.
  pathological: {
    secret: 'INSECURE_NO_AUTH',
    filters: { field: 'value', regex: '(a+)+$' },
  },
  team: {
    secret: 'INSECURE_NO_AUTH',
    filters: [
      { field: 'headers.X-Team', equals: 'core' },
      { field: 'event', equals: 'deploy' },
      { not: { field: 'labels', contains: 'skip' } },
    ],
  },
  allowlist: {
    secret: 'INSECURE_NO_AUTH',
    filters: [{ field: 'user', in_file: 'lists/users.txt' }],
  },
};

function send(
  route: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<Sent> {
  return post(`${gateway.url}/webhooks/${route}`, JSON.stringify(payload), {
    'Content-Type': 'application/json',
    'X-GitHub-Delivery': newDeliveryId(),
    ...headers,
  });
}

beforeAll(async () => {
  home = makeHome();
  fs.mkdirSync(path.join(home, 'data'));
  fs.writeFileSync(path.join(home, 'data/watchlist.json'), JSON.stringify(['chat-1', 'chat-2']));
  fs.mkdirSync(path.join(home, 'lists'));
  fs.writeFileSync(path.join(home, 'lists/users.txt'), 'alice\n');
  gateway = await startRecordingGateway({ rate_limit: 1000, routes }, { home });
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

describe("Hermes' adapter tests, translated", () => {
  it('test_filter_accepts_nested_any_and_in_file: a nested any matches a watchlist under the home', async () => {
    const sent = await send('waha', {
      payload: { fromMe: false, chatId: 'chat-2', body: 'hello' },
    });
    expect(sent.status).toBe(202);
    const deliveryId = String(sent.body.delivery_id);
    const record = await gateway.agentRun(deliveryId);
    expect(record.prompt).toContain('Message from chat-2: hello');

    const stranger = await send('waha', { payload: { fromMe: false, chatId: 'chat-9' } });
    expect(stranger.status).toBe(200);
    expect(stranger.body).toMatchObject({ status: 'ignored', reason: 'filter' });
    const own = await send('waha', { payload: { fromMe: true, chatId: 'chat-1' } });
    expect(own.body).toMatchObject({ status: 'ignored', reason: 'filter' });
  });

  it('test_regex_filter_preserves_normal_search_semantics', async () => {
    expect((await send('releases', { ref: 'refs/heads/release-42' })).status).toBe(202);
    expect((await send('releases', { ref: 'refs/heads/main' })).status).toBe(202);
    expect((await send('releases', { ref: 'refs/heads/feature' })).body).toMatchObject({
      status: 'ignored',
      reason: 'filter',
    });
  });

  // Hermes' `elapsed < 1.0 s` becomes: the answer is `ignored`, the log names the stopped
  // clause, and the receiver answers the next delivery (no timing assertions here).
  it('test_pathological_regex_is_timed_out_outside_the_gateway_process', async () => {
    const value = 'a'.repeat(50_000) + '!';
    const sent = await send('pathological', { value });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'ignored', reason: 'filter' });
    const warning = await waitFor(
      () =>
        gateway
          .logLines()
          .find((line) => line.route === 'pathological' && line.filter === 'filters.regex'),
      'the regex time-limit warning',
    );
    expect(warning).toMatchObject({ level: 40, field: 'value', limit_ms: 100 });
    expect(JSON.stringify(gateway.logLines())).not.toContain('a'.repeat(64));
    expect((await send('releases', { ref: 'refs/heads/main' })).status).toBe(202);
    expect((await send('pathological', { value: 'aaaa' })).status).toBe(202);
  });
});

describe('fields, lists and files', () => {
  it('reads headers in any case and the event', async () => {
    const headers = { 'X-GitHub-Event': 'deploy', 'x-TEAM': 'core' };
    expect((await send('team', { labels: ['ship'] }, headers)).status).toBe(202);
    expect((await send('team', { labels: ['skip'] }, headers)).body).toMatchObject({
      reason: 'filter',
    });
    expect(
      (await send('team', { labels: [] }, { ...headers, 'x-team': 'web' })).body,
    ).toMatchObject({ reason: 'filter' });
  });

  it('reads an in_file list again once it changed', async () => {
    expect((await send('allowlist', { user: 'bob' })).body).toMatchObject({ reason: 'filter' });
    fs.writeFileSync(path.join(home, 'lists/users.txt'), 'alice\nbob\n');
    await waitFor(
      async () => ((await send('allowlist', { user: 'bob' })).status === 202 ? true : undefined),
      'bob accepted after the list changed',
    );
  });
});

describe('checks at start', () => {
  it('refuses a regex that does not compile and a spec with two operators, with key paths', async () => {
    const bad = webhookHome({
      secret: 's',
      routes: {
        r: {
          filters: [
            { field: 'ref', regex: '(unclosed' },
            { any: [{ field: 'a', equals: 1, in: [1] }, { field: 'b' }] },
          ],
        },
      },
    });
    const result = await runCli(['config', 'validate', '--home', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('platforms.webhook.extra.routes.r.filters[0].regex');
    expect(result.stderr).toContain('platforms.webhook.extra.routes.r.filters[1].any[0]');
    expect(result.stderr).toContain('2 operators (equals, in)');
    expect(result.stderr).toContain('platforms.webhook.extra.routes.r.filters[1].any[1]');
    expect(result.stderr).toContain('no operator');
    const started = await runCli(['gateway', '--home', bad]);
    expect(started.code).not.toBe(0);
    expect(started.stderr).toContain('filters[0].regex');
  });

  it('warns about an in_file that is not there yet, and serves', async () => {
    const later = webhookHome({
      routes: {
        r: { secret: 'INSECURE_NO_AUTH', filters: [{ field: 'u', in_file: 'later.txt' }] },
      },
    });
    const other = await startGateway({ home: later });
    try {
      const warning = await waitFor(
        () =>
          other
            .logLines()
            .find((line) => String(line.msg).includes('in_file "later.txt" does not exist')),
        'the in_file warning',
      );
      expect(warning.key).toBe('platforms.webhook.extra.routes.r.filters');
    } finally {
      await other.stop();
    }
  });
});

describe('webhook-gateway filters test', () => {
  it("prints each clause's verdict as a tree and the route's answer", async () => {
    const payload = path.join(home, 'payload.json');
    fs.writeFileSync(payload, JSON.stringify({ payload: { fromMe: false, chatId: 'chat-7' } }));
    const ignored = await runCli(['filters', 'test', '--home', home, '--route', 'waha', payload]);
    expect(ignored.code).toBe(0);
    expect(ignored.stdout.split('\n')).toEqual([
      'route waha · event unknown',
      'filters (every clause must pass):',
      '  ✓ payload.fromMe equals false  (was false)',
      '  ✗ any',
      '    ✗ payload.chatId in_file ~/.hermes/data/watchlist.json  (was "chat-7")',
      '    ✗ payload.id.remote in_file ~/.hermes/data/watchlist.json  (was (missing))',
      'answer: ignored (filter: a filter clause failed)',
      '',
    ]);

    fs.writeFileSync(payload, JSON.stringify({ labels: ['ship'] }));
    const accepted = await runCli([
      'filters',
      'test',
      '--home',
      home,
      '--route',
      'team',
      payload,
      '--event',
      'deploy',
      '--header',
      'X-Team: core',
      '--json',
    ]);
    expect(accepted.code).toBe(0);
    const json = JSON.parse(accepted.stdout) as { answer: unknown; clauses: unknown[] };
    expect(json.answer).toEqual({ status: 'accepted' });
    expect(json.clauses).toHaveLength(3);
  });

  it('shows a regex stopped at the time limit, without the value it was stopped on', async () => {
    const payload = path.join(home, 'pathological.json');
    fs.writeFileSync(payload, JSON.stringify({ value: 'a'.repeat(50_000) + '!' }));
    const result = await runCli([
      'filters',
      'test',
      '--home',
      home,
      '--route',
      'pathological',
      payload,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'route pathological · event unknown',
      'filters (every clause must pass):',
      '  ✗ value regex (a+)+$  (timed out after 100 ms)',
      'timed out: filters.regex (field value) did not finish within the 100 ms the filters’ regexes share; it counts as not matching, even under not',
      'answer: ignored (filter: a filter clause failed)',
      '',
    ]);
  });

  it('answers a usage error for an unknown route', async () => {
    const payload = path.join(home, 'payload.json');
    const result = await runCli(['filters', 'test', '--home', home, '--route', 'nope', payload]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--route nope: no such route');
  });
});
