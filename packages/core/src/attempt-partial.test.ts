import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import {
  createHooks,
  type AttemptEvent,
  type DeliverRequest,
  type ReviewChunk,
  type RunRequest,
  type RunResult,
} from './hooks.js';
import { MemoryStore } from './memory-store.js';
import { runLimitError } from './run-limit.js';
import { sampleDelivery } from './testing/store-samples.js';
import { attemptDeps } from './test-support/attempt-deps.js';

/** A route `reviews` delivering to a recording sink, its runner played by `run`. */
function setup(
  run: (request: RunRequest) => Promise<RunResult>,
  options: { agent?: Record<string, unknown>; chunks?: ReviewChunk[] } = {},
) {
  const config = parseConfig({
    ...(options.agent ? { agent: options.agent } : {}),
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          routes: {
            reviews: {
              secret: 's',
              deliver: 'sink',
              ...(options.chunks ? { prompt: 'Review:\n{_gateway.diff}' } : {}),
            },
          },
        },
      },
    },
  });
  const hooks = createHooks();
  if (options.chunks) {
    const chunks = options.chunks;
    hooks.reviewContext.tapPromise('forge', async () => ({ values: { diff: 'ALL' }, chunks }));
  }
  hooks.run.for('dry-run').tapPromise('test', run);
  const delivered: DeliverRequest[] = [];
  hooks.deliver.for('sink').tapPromise('test', async (request) => void delivered.push(request));
  const events: AttemptEvent[] = [];
  hooks.attemptFinished.tap('test', (event) => void events.push(event));
  const store = new MemoryStore();
  const deps = attemptDeps(store, hooks, config);
  const attempt = async (interrupt = new AbortController().signal) => {
    const result = await store.accept(
      sampleDelivery({ deliveryId: `d-${Math.random()}` }),
      3_600_000,
    );
    if (!result.accepted) throw new Error('not accepted');
    const outcome = await attemptDelivery(deps, result.record.id, interrupt);
    return { outcome, row: await store.get(result.record.id) };
  };
  return { attempt, delivered, events };
}

const COMMENT = { path: 'src/a.ts', line: 3, body: 'off by one' };

/** A runner that reports a remark and some text, then is stopped by the turn cap. */
async function stoppedAfterProducing(request: RunRequest): Promise<RunResult> {
  request.reportAccounting({ runner: 'openai', turns: 4 });
  request.reportProduced?.({ answer: 'So far: one bug.', lineComments: [COMMENT] });
  throw runLimitError(
    'turns',
    4,
    'agent stopped after 4 turns without a final answer (agent.max_turns)',
  );
}

describe('a run a limit stops', () => {
  it('delivers what it produced with a notice, and ends delivered and partial', async () => {
    const { attempt, delivered, events } = setup(stoppedAfterProducing);
    const { outcome, row } = await attempt();
    expect(outcome.status).toBe('delivered');
    const notice =
      '> **Review incomplete:** turn cap of 4 reached (agent.max_turns) after 4 model turns. ' +
      'What follows is what the agent produced before it was stopped.';
    expect(delivered[0]).toMatchObject({
      summary: `${notice}\n\nSo far: one bug.`,
      lineComments: [COMMENT],
      answer: `${notice}\n\nSo far: one bug.\n\nsrc/a.ts:3 — off by one`,
    });
    expect(row).toMatchObject({ status: 'delivered', partial: true, lastError: null });
    expect(events.map((e) => [e.status, e.record.partial])).toEqual([['delivered', true]]);
  });

  it('fails as before with agent.on_limit: fail', async () => {
    const { attempt, delivered } = setup(stoppedAfterProducing, {
      agent: { on_limit: 'fail' },
    });
    const { outcome, row } = await attempt();
    expect(outcome.status).toBe('retry');
    expect(delivered).toEqual([]);
    expect(row?.partial).toBeUndefined();
    expect(row?.lastError).toBe(
      'agent stopped after 4 turns without a final answer (agent.max_turns)',
    );
  });

  it('fails as before when the run produced nothing, or only blank text', async () => {
    const { attempt, delivered } = setup(async (request) => {
      request.reportProduced?.({ answer: '  \n', lineComments: [] });
      throw runLimitError('tokens', 100, 'token budget of 100 exceeded', { retryable: false });
    });
    const { outcome, row } = await attempt();
    expect(outcome.status).toBe('failed');
    expect(delivered).toEqual([]);
    expect(row?.lastError).toBe('token budget of 100 exceeded');
  });

  it('is not delivered when the gateway stops the run: the delivery runs again at the next start', async () => {
    const stop = new AbortController();
    const { attempt, delivered } = setup(async (request) => {
      request.reportProduced?.({ answer: 'So far.', lineComments: [] });
      stop.abort(new Error('gateway stopping'));
      throw runLimitError('timeout', 5, 'agent run (dry-run) timed out after 5 s');
    });
    const { outcome } = await attempt(stop.signal);
    expect(outcome.status).toBe('interrupted');
    expect(delivered).toEqual([]);
  });

  it('delivers after the timeout what the run reported, ignoring what it reports once stopped', async () => {
    const { attempt, delivered } = setup(
      (request) =>
        new Promise((_, reject) => {
          request.reportProduced?.({ answer: 'Before the timeout.', lineComments: [] });
          request.signal.addEventListener('abort', () => {
            request.reportProduced?.({ answer: 'After it.', lineComments: [] });
            reject(request.signal.reason as Error);
          });
        }),
      { agent: { timeout_s: 0.05 } },
    );
    const { outcome, row } = await attempt();
    expect(outcome.status).toBe('delivered');
    expect(row?.partial).toBe(true);
    expect(delivered[0]?.summary).toBe(
      '> **Review incomplete:** time limit of 0.05 s reached (agent.timeout_s). ' +
        'What follows is what the agent produced before it was stopped.\n\nBefore the timeout.',
    );
    // The target is called with a live signal: the run's timeout stopped the run alone.
    expect(delivered[0]?.signal.aborted).toBe(false);
  });

  it('in a chunked review, delivers the parts done and the stopped one, saying how far it got', async () => {
    const chunks = [
      { files: ['src/a.ts', 'src/b.ts'], diff: 'DIFF-ONE' },
      { files: ['src/c.ts'], diff: 'DIFF-TWO' },
      { files: ['docs/d.md'], diff: 'DIFF-THREE' },
    ];
    const prompts: string[] = [];
    const { attempt, delivered } = setup(
      async (request) => {
        prompts.push(request.prompt);
        if (request.prompt.includes('DIFF-ONE')) return { answer: 'Part one is fine.' };
        request.reportProduced?.({ answer: 'Part two, so far.', lineComments: [COMMENT] });
        throw runLimitError('tokens', 200_000, 'token budget of 200000 exceeded', {
          retryable: false,
        });
      },
      { chunks },
    );
    const { outcome, row } = await attempt();
    expect(outcome.status).toBe('delivered');
    expect(prompts).toHaveLength(2);
    expect(row?.partial).toBe(true);
    expect(delivered[0]?.summary).toBe(
      '> **Review incomplete:** token budget of 200,000 reached (agent.max_tokens_per_delivery) ' +
        'after 1 of 3 parts of the diff (2 of 4 files). ' +
        'What follows is what the agent produced before it was stopped.\n\n' +
        '### Part 1 of 3: `src/a.ts`, `src/b.ts`\n\nPart one is fine.\n\n' +
        '### Part 2 of 3: `src/c.ts`\n\nPart two, so far.',
    );
    expect(delivered[0]?.lineComments).toEqual([COMMENT]);
  });

  it('in a chunked review stopped with nothing from its chunk, delivers the parts done', async () => {
    const chunks = [
      { files: ['src/a.ts'], diff: 'DIFF-ONE' },
      { files: ['src/c.ts'], diff: 'DIFF-TWO' },
    ];
    const { attempt, delivered } = setup(
      async (request) => {
        if (request.prompt.includes('DIFF-ONE')) return { answer: 'Part one is fine.' };
        throw runLimitError('turns', 3, 'agent stopped after 3 turns without a final answer');
      },
      { chunks },
    );
    const { outcome } = await attempt();
    expect(outcome.status).toBe('delivered');
    expect(delivered[0]?.summary).toMatch(
      /^> \*\*Review incomplete:\*\* turn cap of 3 reached \(agent.max_turns\) after 1 of 2 parts of the diff \(1 of 2 files\)\./,
    );
  });
});

describe('agent.on_limit', () => {
  it('is partial by default and refuses another value, naming the key', () => {
    const base = { platforms: { webhook: { extra: { routes: { r: { secret: 's' } } } } } };
    expect(parseConfig(base).agent.on_limit).toBe('partial');
    expect(() => parseConfig({ ...base, agent: { on_limit: 'retry' } })).toThrow(/agent\.on_limit/);
  });
});
