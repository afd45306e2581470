/**
 * A review a limit stops still reaches its target (`agent.on_limit: partial`, the default), through
 * the built CLI on each store (a SQLite file, Redis): stopped by the token budget, the turn cap or
 * the timeout after the model wrote text or line comments, the delivery ends `delivered` and
 * partial, its answer starting with a notice; `on_limit: fail`, or a run that produced nothing,
 * fails as before. The model is a fake chat-completions server on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTools,
  startFakeOpenAI,
  type FakeOpenAI,
  type Responder,
} from '../../packages/agent/src/test-support/fake-openai.js';
import { cleanupHomes, runCli, startGateway, type StartedGateway } from '../support/gateway.js';
import { listDeliveries, showDelivery, type ListedDelivery } from '../support/journal-read.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { fixture, sendForge } from '../support/requests.js';
import { waitFor } from '@webhook-gateway/core/testing';

const SECRET = 'partial-secret-0123456789abcdef';
const redis = await findTestRedis();

const usage = (total: number) => ({
  prompt_tokens: total - 10,
  completion_tokens: 10,
  total_tokens: total,
});

/** A turn that writes `text` and asks for `calls`, as a model thinking aloud does. */
function sayAndCall(
  text: string,
  calls: Parameters<typeof callTools>[0],
  spent = usage(100),
): Responder {
  return (request) => {
    const response = callTools(calls, spent)(request);
    const body = response.body as { choices: { message: { content: string | null } }[] };
    const [choice] = body.choices;
    if (choice) choice.message.content = text;
    return response;
  };
}

const remark = (line: number) => ({
  name: 'comment_on_line',
  arguments: { path: 'README.md', line, body: `remark on line ${line}` },
});
const echo = { arguments: { command: 'echo reading' } };

const ROUTES = {
  // 100 tokens a turn: the third turn passes 250.
  tokens: { agent: { max_tokens_per_delivery: 250 } },
  turns: { agent: { max_turns: 2 } },
  timeout: { agent: { timeout_s: 1 } },
  fails: { agent: { max_tokens_per_delivery: 250, on_limit: 'fail' } },
  nothing: { agent: { max_turns: 2 } },
};

for (const store of ['sqlite', 'redis'] as const) {
  const skip = store === 'redis' && !redis;
  describe.skipIf(skip)(`partial reviews on the ${store} store`, () => {
    let chat: FakeOpenAI;
    let gateway: StartedGateway;
    const prefix = uniquePrefix();

    beforeAll(async () => {
      chat = await startFakeOpenAI();
      gateway = await startGateway({
        config: {
          ...(store === 'redis' && redis
            ? { store: { kind: 'redis', url: redis.url({ prefix }) } }
            : {}),
          agent: {
            runner: 'openai',
            base_url: chat.baseUrl,
            model: 'partial-model',
            max_turns: 6,
          },
          platforms: {
            webhook: {
              extra: {
                secret: SECRET,
                max_attempts: 1,
                routes: Object.fromEntries(
                  Object.entries(ROUTES).map(([name, route]) => [
                    name,
                    { events: ['pull_request'], deliver: 'log', ...route },
                  ]),
                ),
              },
            },
          },
        },
      });
    });

    afterAll(async () => {
      await gateway?.stop();
      await chat?.close();
      if (redis && store === 'redis') await deleteKeys(redis.url(), prefix);
    });

    /** Sends a pull request to `route` and waits for `deliveries list` to show it finished. */
    async function review(route: string, deliveryId: string): Promise<ListedDelivery> {
      const sent = await sendForge(gateway.url, route, {
        body: fixture('forge/pull_request_opened.json'),
        secret: SECRET,
        event: 'pull_request',
        deliveryId,
      });
      expect(sent.status).toBe(202);
      return waitFor(
        async () => {
          const row = (await listDeliveries(gateway.home)).find((r) => r.deliveryId === deliveryId);
          return row && row.status !== 'queued' && row.status !== 'running' ? row : undefined;
        },
        `${deliveryId} to finish`,
        { timeoutMs: 30_000 },
      );
    }

    /** The answer the log target wrote for `deliveryId`. */
    function loggedAnswer(deliveryId: string): Promise<unknown> {
      return waitFor(
        () =>
          gateway.logLines().find((l) => l.msg === 'agent answer' && l.delivery_id === deliveryId)
            ?.answer,
        `the answer of ${deliveryId} in the log`,
      );
    }

    it('delivers what the model produced before the token budget ran out, with a notice', async () => {
      const id = `${store}-tokens`;
      chat.script(
        sayAndCall('Reading the README first.', [remark(1)]),
        callTools([remark(2)], usage(100)),
        sayAndCall('Half way.', [echo]),
      );
      const row = await review('tokens', id);
      expect(row).toMatchObject({ status: 'delivered', partial: true, tokens: 300 });
      const shown = await showDelivery(gateway.home, row.id);
      expect(shown.answer).toBe(
        '> **Review incomplete:** token budget of 250 reached (agent.max_tokens_per_delivery) ' +
          'after 3 model turns. What follows is what the agent produced before it was stopped.' +
          '\n\nReading the README first.\n\nHalf way.',
      );
      expect(shown.lineComments.map((c) => c.line)).toEqual([1, 2]);
      expect(await loggedAnswer(id)).toBe(
        `${shown.answer}\n\nREADME.md:1 — remark on line 1\nREADME.md:2 — remark on line 2`,
      );
      const text = await runCli(['deliveries', 'show', row.id, '--home', gateway.home]);
      expect(text.stdout).toContain('delivered, partial: a limit stopped the agent');
      const table = await runCli(['deliveries', 'list', '--home', gateway.home]);
      expect(table.stdout.split('\n').find((line) => line.startsWith(row.id))).toContain(
        'delivered (partial)',
      );
    });

    it('delivers the line comments left before the turn cap', async () => {
      const id = `${store}-turns`;
      chat.script(callTools([remark(3)]), callTools([remark(4)]));
      const row = await review('turns', id);
      expect(row).toMatchObject({ status: 'delivered', partial: true });
      const shown = await showDelivery(gateway.home, row.id);
      expect(shown.answer).toBe(
        '> **Review incomplete:** turn cap of 2 reached (agent.max_turns) after 2 model turns. ' +
          'What follows is what the agent produced before it was stopped.',
      );
      expect(shown.lineComments.map((c) => c.line)).toEqual([3, 4]);
    });

    it('delivers what was produced when the run times out', async () => {
      const id = `${store}-timeout`;
      chat.script(sayAndCall('First look: fine so far.', [remark(5)]), {
        // Longer than the route's timeout_s: the run is stopped while it waits.
        delayMs: 10_000,
        body: {},
      });
      const row = await review('timeout', id);
      expect(row).toMatchObject({ status: 'delivered', partial: true });
      const shown = await showDelivery(gateway.home, row.id);
      expect(shown.answer).toBe(
        '> **Review incomplete:** time limit of 1 s reached (agent.timeout_s) after 1 model turn. ' +
          'What follows is what the agent produced before it was stopped.' +
          '\n\nFirst look: fine so far.',
      );
      expect(shown.lineComments.map((c) => c.line)).toEqual([5]);
    });

    it('fails as before with agent.on_limit: fail, and when the stopped run produced nothing', async () => {
      chat.script(
        sayAndCall('Something.', [remark(6)]),
        callTools([echo], usage(100)),
        callTools([echo], usage(100)),
      );
      const failed = await review('fails', `${store}-fails`);
      expect(failed).toMatchObject({ status: 'failed', partial: false });
      expect(failed.lastError).toMatch(/^token budget of 250 exceeded: 300 tokens spent/);

      chat.script(callTools([echo]), callTools([echo]));
      const empty = await review('nothing', `${store}-nothing`);
      expect(empty).toMatchObject({ status: 'failed', partial: false });
      expect(empty.lastError).toBe(
        'agent stopped after 2 turns without a final answer (agent.max_turns)',
      );
    });
  });
}

afterAll(async () => {
  await redis?.stop();
  cleanupHomes();
});
