/**
 * The measurement of issue 16: a pull request is opened, then pushed to four times while each
 * review is still running. Before (`supersede` off, `mode: new`) against after (`supersede: true`,
 * `mode: update`): agent runs, comments left on the pull request (the real `gh` against the TLS
 * fake forge, which keeps comments), and model tokens (the `openai` runner against a fake
 * chat-completions server that reports usage). The counts are asserted; the table is printed.
 *
 * Short timing by default (2 s a run, pushes 200 ms apart: the four pushes land well inside the
 * first run even on a loaded machine, which the counts rely on). The timing:
 *   REVIEW_AGENT_MS=10000 REVIEW_PUSH_GAP_MS=2000 npx vitest run test/e2e/review-pushes.test.ts
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answer,
  startFakeOpenAI,
  type FakeOpenAI,
  type Responder,
  type Usage,
} from '../../packages/agent/src/test-support/fake-openai.js';
import {
  startFakeForgeApi,
  type FakeForgeApi,
} from '../../packages/deliver-forge-comment/src/test-support/fake-forge-api.js';
import { cleanupHomes, makeHome, startGateway, waitFor } from '../support/gateway.js';
import { appendingAgent } from '../support/journal-agents.js';
import { readJournal } from '../support/journal-read.js';
import { fixture, sendForge } from '../support/requests.js';

const AGENT_MS = Number(process.env.REVIEW_AGENT_MS ?? 2_000);
const PUSH_GAP_MS = Number(process.env.REVIEW_PUSH_GAP_MS ?? 200);
const PUSHES = 4;
const SECRET = 'e2e-review-pushes-secret';
// The same incremental prompt before and after: only supersede and the comment mode differ.
const PROMPT = [
  'Review pull request #{number} of {repository.full_name}.',
  'Last reviewed head: "{_gateway.previous_head_sha}" (empty: review everything).',
  'If it is set, review only',
  'gh api repos/{repository.full_name}/compare/{_gateway.previous_head_sha}...{pull_request.head.sha}',
].join('\n');

type Setup = 'before' | 'after';

interface Measured {
  setup: Setup;
  commandRuns: number;
  commandComments: number;
  openaiRuns: number;
  openaiComments: number;
  tokens: number;
  superseded: number;
  /** From the first push accepted to the last review delivered (printed, never asserted). */
  lastReviewS: number;
}

let forge: FakeForgeApi;
let ghConfigDir: string;
beforeAll(async () => {
  forge = await startFakeForgeApi();
  ghConfigDir = mkdtempSync(path.join(tmpdir(), 'gh-config-'));
});
afterAll(async () => {
  await forge.close();
  cleanupHomes();
});

/** The fixture's pull request at `action` with head `sha`. */
function push(action: string, sha: string): string {
  const payload = JSON.parse(fixture('forge/pull_request_opened.json').toString('utf8')) as {
    action: string;
    pull_request: { head: { sha: string } };
  };
  payload.action = action;
  payload.pull_request.head.sha = sha;
  return JSON.stringify(payload);
}

/** A review that takes AGENT_MS and is charged 1 token per 4 characters of what it was sent. */
function slowReview(reported: Usage[]): Responder {
  return (request) => {
    const sent = request.body.messages.reduce((n, m) => n + (m.content?.length ?? 0), 0);
    const usage = {
      prompt_tokens: Math.ceil(sent / 4),
      completion_tokens: 150,
      total_tokens: Math.ceil(sent / 4) + 150,
    };
    reported.push(usage);
    return { ...answer('Reviewed: looks good.', usage)(request), delayMs: AGENT_MS };
  };
}

async function measure(setup: Setup): Promise<Measured> {
  const home = makeHome();
  const runsFile = path.join(home, 'command-runs.txt');
  const openai: FakeOpenAI = await startFakeOpenAI();
  const reported: Usage[] = [];
  openai.script(...Array.from({ length: 1 + PUSHES }, () => slowReview(reported)));
  const repo = (runner: string) => `octo/${setup}-${runner}`;
  const route = (runner: string, agent: Record<string, unknown> | undefined) => ({
    events: ['pull_request'],
    actions: ['opened', 'synchronize'],
    prompt: PROMPT,
    supersede: setup === 'after',
    deliver: 'forge_comment',
    deliver_extra: { repo: repo(runner), mode: setup === 'after' ? 'update' : 'new' },
    ...(agent ? { agent } : {}),
  });
  const gateway = await startGateway({
    config: {
      agent: { ...appendingAgent(runsFile, { sleepS: AGENT_MS / 1000 }), timeout_s: 600 },
      platforms: {
        forge: { host: forge.host, token: forge.token },
        webhook: {
          extra: {
            secret: SECRET,
            routes: {
              'review-command': route('command', undefined),
              'review-openai': route('openai', {
                runner: 'openai',
                base_url: openai.baseUrl,
                model: 'review-model',
                terminal: { enabled: false },
              }),
            },
          },
        },
      },
    },
    home,
    env: { SSL_CERT_FILE: forge.certFile, GH_CONFIG_DIR: ghConfigDir, GH_TOKEN: undefined },
  });
  try {
    const heads = Array.from({ length: 1 + PUSHES }, (_, i) => String(i + 1).repeat(40));
    for (const [index, sha] of heads.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, PUSH_GAP_MS));
      const body = push(index === 0 ? 'opened' : 'synchronize', sha);
      for (const name of ['review-command', 'review-openai']) {
        const sent = await sendForge(gateway.url, name, {
          body,
          secret: SECRET,
          event: 'pull_request',
        });
        expect(sent.status).toBe(202);
      }
    }
    const rows = await waitFor(
      async () => {
        const journal = await readJournal(home);
        const settled = journal.every((row) => row.status !== 'queued' && row.status !== 'running');
        return journal.length === 2 * heads.length && settled ? journal : undefined;
      },
      'every review to end',
      { timeoutMs: (1 + PUSHES) * AGENT_MS * 2 + 60_000 },
    );
    expect(rows.filter((row) => row.status !== 'delivered' && row.status !== 'superseded')).toEqual(
      [],
    );
    const openaiRows = rows.filter((row) => row.route === 'review-openai');
    const journalTokens = openaiRows.reduce(
      (sum, row) => sum + (row.agent?.usage?.totalTokens ?? 0),
      0,
    );
    const tokens = reported.reduce((sum, usage) => sum + usage.total_tokens, 0);
    // What the gateway journaled is what the model reported.
    expect(journalTokens).toBe(tokens);
    return {
      setup,
      commandRuns: existsSync(runsFile)
        ? readFileSync(runsFile, 'utf8').split('\n').filter(Boolean).length
        : 0,
      commandComments: forge.comments(repo('command'), 2).length,
      openaiRuns: openai.requests.length,
      openaiComments: forge.comments(repo('openai'), 2).length,
      tokens,
      superseded: rows.filter((row) => row.status === 'superseded').length,
      lastReviewS:
        (Math.max(...rows.map((row) => row.finishedAt ?? 0)) -
          Math.min(...rows.map((row) => row.receivedAt))) /
        1000,
    };
  } finally {
    await gateway.stop();
    await openai.close();
  }
}

function table(rows: Measured[]): string {
  const lines = [
    `[review pushes] opened + ${PUSHES} synchronize pushes ${PUSH_GAP_MS} ms apart, each review ${AGENT_MS} ms`,
    '| setup | agent runs (command) | comments (command) | agent runs (openai) | comments (openai) | model tokens (openai) | last review done |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.setup === 'before' ? 'before: supersede off, mode: new' : 'after: supersede: true, mode: update'} | ${row.commandRuns} | ${row.commandComments} | ${row.openaiRuns} | ${row.openaiComments} | ${row.tokens.toLocaleString('en-US')} | ${row.lastReviewS.toFixed(1)} s |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

describe('a pull request pushed to while its review runs (issue 16)', () => {
  it(
    'runs the agent twice instead of five times, leaves one comment, and spends at most 2/5 of the tokens',
    async () => {
      const before = await measure('before');
      const after = await measure('after');
      process.stdout.write(table([before, after]));

      expect(before).toMatchObject({
        commandRuns: 5,
        commandComments: 5,
        openaiRuns: 5,
        openaiComments: 5,
        superseded: 0,
      });
      expect(after).toMatchObject({
        commandRuns: 2,
        commandComments: 1,
        openaiRuns: 2,
        openaiComments: 1,
        superseded: 6,
      });
      expect(after.tokens).toBeLessThanOrEqual((before.tokens * 2) / 5);
    },
    (1 + PUSHES) * AGENT_MS * 6 + 120_000,
  );
});
