import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import {
  createHooks,
  type DeliverRequest,
  type ReviewContext,
  type ReviewContextRequest,
  type RunResult,
} from './hooks.js';
import type { FindingsEvent } from './findings.js';
import { MemoryStore } from './memory-store.js';
import { sampleDelivery } from './testing/store-samples.js';
import { attemptDeps } from './test-support/attempt-deps.js';

/** `setup`, with a runner that answers each prompt as `answerFor` says. */
function setupWithRunner(
  prompt: string,
  answer: (request: ReviewContextRequest) => ReviewContext | undefined,
  answerFor: (prompt: string) => RunResult,
) {
  return setup(prompt, answer, {}, answerFor);
}

/** A route whose template names `prompt`'s review values, a forge plugin's tap that records. */
function setup(
  prompt: string,
  answer: (request: ReviewContextRequest) => ReviewContext | undefined = prepared,
  review: Record<string, unknown> = {},
  answerFor: (prompt: string) => RunResult = () => ({ answer: 'Looks fine.' }),
) {
  const config = parseConfig({
    review: { max_diff_tokens: 9_000 },
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          routes: { reviews: { secret: 's', deliver: 'sink', prompt, review } },
        },
      },
    },
  });
  const hooks = createHooks();
  const asked: ReviewContextRequest[] = [];
  hooks.reviewContext.tapPromise('forge', async (request) => {
    asked.push(request);
    return answer(request);
  });
  const prompts: string[] = [];
  hooks.run.for('dry-run').tapPromise('test', async (request) => {
    prompts.push(request.prompt);
    return answerFor(request.prompt);
  });
  const delivered: DeliverRequest[] = [];
  hooks.deliver.for('sink').tapPromise('test', async (request) => {
    delivered.push(request);
  });
  const store = new MemoryStore();
  const deps = attemptDeps(store, hooks, config);
  return { store, deps, asked, prompts, delivered };
}

function prepared(request: ReviewContextRequest): ReviewContext {
  return {
    values: Object.fromEntries([...request.wanted].map((value) => [value, `<${value}>`])),
    footer: '---\n\n**Not reviewed** (1 file; generated: 1): `package-lock.json` (generated)',
  };
}

async function accept(store: MemoryStore, overrides: Parameters<typeof sampleDelivery>[0] = {}) {
  const result = await store.accept(
    sampleDelivery({ deliveryId: `d-${Math.random()}`, ...overrides }),
    3_600_000,
  );
  if (!result.accepted) throw new Error('not accepted');
  return result.record.id;
}

const signal = new AbortController().signal;

describe('the review context in an attempt', () => {
  it('asks for only the values the template names, and renders them', async () => {
    const { store, deps, asked, prompts } = setup(
      'Review:\n{_gateway.diff}\nRules: {_gateway.instructions}',
    );
    await attemptDelivery(deps, await accept(store), signal);
    expect(asked).toHaveLength(1);
    expect([...(asked[0]?.wanted ?? [])].sort()).toEqual(['diff', 'instructions']);
    expect(asked[0]?.review).toMatchObject({
      max_diff_tokens: 9_000,
      incremental: false,
      chunks: 1,
    });
    expect(asked[0]?.since).toBe('');
    expect(prompts[0]).toContain('Review:\n<diff>\nRules: <instructions>');
  });

  it('ends the answer with the footer, journaled, so a retry delivers the same text', async () => {
    const { store, deps, delivered } = setup('{_gateway.diff}');
    const id = await attemptDelivery(deps, await accept(store), signal);
    expect(id.status).toBe('delivered');
    expect(delivered[0]?.answer).toBe(
      'Looks fine.\n\n---\n\n**Not reviewed** (1 file; generated: 1): `package-lock.json` (generated)',
    );
    if (id.status === 'delivered')
      expect((await store.get(id.record.id))?.answer).toBe(delivered[0]?.answer);
  });

  it('a template that names no review value never asks', async () => {
    const { store, deps, asked } = setup('Review #{number}');
    await attemptDelivery(deps, await accept(store), signal);
    expect(asked).toEqual([]);
  });

  it('an event that is not about a pull request never asks', async () => {
    const { store, deps, asked } = setup('{_gateway.diff}');
    await attemptDelivery(
      deps,
      await accept(store, { event: 'push', payload: { ref: 'refs/heads/main' }, orderKey: null }),
      signal,
    );
    expect(asked).toEqual([]);
  });

  it('the repository’s rules skip the request: status skipped, no run, the reason kept', async () => {
    const { store, deps, prompts } = setup('{_gateway.diff}', () => ({
      values: {},
      skip: 'label no-review',
    }));
    const outcome = await attemptDelivery(deps, await accept(store), signal);
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'repo_config: label no-review' });
    expect(prompts).toEqual([]);
  });

  it('no plugin for the sender: the values say so rather than leave a review without its diff', async () => {
    const { store, deps, prompts } = setup('Diff:\n{_gateway.diff}', () => undefined);
    await attemptDelivery(deps, await accept(store, { authScheme: 'gitea' }), signal);
    expect(prompts[0]).toContain(
      'Diff:\n(no installed plugin prepares a review for this sender\'s "gitea" deliveries)',
    );
  });

  it('incremental: the last delivered head of the same request is what the diff starts from', async () => {
    const { store, deps, asked } = setup('{_gateway.diff}', prepared, { incremental: true });
    const first = await accept(store, {
      payload: {
        action: 'opened',
        number: 7,
        pull_request: { number: 7, head: { sha: 'aaa111' } },
        repository: { full_name: 'octo/repo' },
      },
    });
    await attemptDelivery(deps, first, signal);
    expect(asked[0]?.since).toBe('');
    const second = await accept(store, {
      payload: {
        action: 'synchronize',
        number: 7,
        pull_request: { number: 7, head: { sha: 'bbb222' } },
        repository: { full_name: 'octo/repo' },
      },
    });
    await attemptDelivery(deps, second, signal);
    expect(asked[1]?.since).toBe('aaa111');
  });

  it('chunks: one run per chunk with its diff, one answer under file headings, tokens added up', async () => {
    const chunks = [
      { files: ['src/a.ts', 'src/b.ts'], diff: 'DIFF-ONE' },
      { files: ['src/c.ts'], diff: 'DIFF-TWO' },
      { files: ['docs/d.md'], diff: 'DIFF-THREE' },
    ];
    const { store, deps, prompts, delivered } = setupWithRunner(
      'Review this part:\n{_gateway.diff}',
      () => ({ values: { diff: 'WHOLE' }, chunks, footer: 'FOOTER' }),
      (prompt) => {
        if (prompt.includes('DIFF-THREE')) return { answer: '[SILENT]' };
        const part = prompt.includes('DIFF-ONE') ? 'one' : 'two';
        return {
          answer: `Remarks on ${part}.`,
          lineComments: [{ path: `src/${part}.ts`, line: 1, body: part }],
          accounting: {
            runner: 'openai',
            usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 },
          },
        };
      },
    );
    const id = await accept(store);
    const outcome = await attemptDelivery(deps, id, signal);
    expect(outcome.status).toBe('delivered');
    expect(prompts.map((p) => p.split('\n')[1])).toEqual(['DIFF-ONE', 'DIFF-TWO', 'DIFF-THREE']);
    expect(delivered[0]?.summary).toBe(
      '### Part 1 of 3: `src/a.ts`, `src/b.ts`\n\nRemarks on one.\n\n### Part 2 of 3: `src/c.ts`\n\nRemarks on two.\n\nFOOTER',
    );
    expect(delivered[0]?.lineComments.map((c) => c.body)).toEqual(['one', 'two']);
    const row = await store.get(id);
    expect(row?.agent?.usage).toEqual({
      promptTokens: 200,
      completionTokens: 20,
      totalTokens: 220,
    });
    expect(row?.prompt?.split('---------- next chunk ----------')).toHaveLength(3);
  });
});

describe('findings in an attempt', () => {
  it("hands the target its route's findings of the request, keeps what it saves, and reports its counts", async () => {
    const { store, deps, delivered } = setup('Review #{number}');
    const observed: FindingsEvent[] = [];
    deps.hooks.findingsReviewed.tap('test', (event) => observed.push(event));
    const counts = { new: 1, stillOpen: 0, resolved: 0, suppressed: 0, resolveErrors: 0 };
    const finding = {
      fingerprint: 'ab12',
      path: 'src/a.ts',
      line: 2,
      body: 'b is unused',
      lineText: 'const b = 2;',
      state: 'open' as const,
      raisedBy: 'd-1',
    };
    deps.hooks.deliver.for('sink').tapPromise('findings', async (request) => {
      expect(await request.findings?.read()).toEqual([]);
      await request.findings?.save([finding]);
      request.findings?.report?.(counts);
    });
    const orderKey = 'reviews|octo/repo|7';
    const outcome = await attemptDelivery(deps, await accept(store, { orderKey }), signal);
    expect(outcome.status).toBe('delivered');
    expect(delivered).toHaveLength(1);
    expect(await store.findings(orderKey)).toEqual([finding]);
    expect(observed).toEqual([{ route: 'reviews', target: 'sink', counts }]);
    // A delivery about no pull request gets no findings to keep.
    await attemptDelivery(deps, await accept(store, { orderKey: null }), signal);
    expect(delivered[1]?.findings).toBeUndefined();
  });
});
