/**
 * The measurement of issue 31 (docs/reviews.md#findings-remembered-across-pushes): one pull
 * request opened and pushed to four times, reviewed after each push by the built gateway
 * (`forge_review`, the real `gh` against the TLS fake forge, which keeps reviews and their
 * threads) with a `command` agent that raises the same four findings every time; a person
 * dismisses one (a `/dismiss` reply) after push 2. Line comments posted: before
 * (`deliver_extra.findings: false`, what every review did until now) against after (the findings
 * remembered), the latter on the SQLite journal and on Redis. The counts are asserted; the table
 * is printed.
 *
 *   npx vitest run test/e2e/review-findings.test.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeForgeApi,
  type FakeForgeApi,
} from '../../packages/deliver-forge-comment/src/test-support/fake-forge-api.js';
import { cleanupHomes, makeHome, startGateway, waitFor } from '../support/gateway.js';
import { settledJournal, showDelivery } from '../support/journal-read.js';
import { deleteKeys, findTestRedis, uniquePrefix } from '../support/redis-server.js';
import { fixture, sendForge } from '../support/requests.js';

const SECRET = 'e2e-review-findings-secret';
const PUSHES = 5;
const DISMISSED = 'export b too';
const FINDINGS = [
  { path: 'src/a.ts', line: 1, body: 'a is a poor name' },
  { path: 'src/a.ts', line: 2, body: 'b is unused' },
  { path: 'src/a.ts', line: 3, body: 'c should be a constant' },
  { path: 'src/a.ts', line: 4, body: DISMISSED },
];
const LINES = ['const a = 1;', 'const b = 2;', 'let c = 3;', 'export { a };'];

const redis = await findTestRedis();
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

type Setup = 'before' | 'after (SQLite)' | 'after (Redis)';

interface Measured {
  setup: Setup;
  reviews: number;
  lineComments: number;
  /** How many times the finding dismissed after push 2 was posted. */
  dismissedPosted: number;
}

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

async function measure(setup: Setup, store?: Record<string, unknown>): Promise<Measured> {
  const repo = `octo/findings-${setup.replace(/\W+/g, '-')}`;
  forge.setDiff(repo, 2, [
    {
      filename: 'src/a.ts',
      patch: `@@ -0,0 +1,4 @@\n${LINES.map((line) => `+${line}`).join('\n')}`,
      lines: [1, 2, 3, 4],
    },
  ]);
  const review = JSON.stringify({ summary: 'Four remarks.', comments: FINDINGS });
  const home = makeHome();
  const gateway = await startGateway({
    config: {
      ...(store ? { store } : {}),
      agent: {
        runner: 'command',
        command: ['/bin/sh', '-c', 'cat >/dev/null; printf "%s" "$1"', 'agent', review],
        timeout_s: 30,
      },
      platforms: {
        forge: { host: forge.host, token: forge.token },
        webhook: {
          extra: {
            secret: SECRET,
            routes: {
              review: {
                events: ['pull_request'],
                actions: ['opened', 'synchronize'],
                prompt: 'Review pull request #{number}.',
                deliver: 'forge_review',
                deliver_extra: { repo, ...(setup === 'before' ? { findings: false } : {}) },
              },
            },
          },
        },
      },
    },
    home,
    env: { SSL_CERT_FILE: forge.certFile, GH_CONFIG_DIR: ghConfigDir, GH_TOKEN: undefined },
  });
  try {
    for (let index = 0; index < PUSHES; index++) {
      const sha = String(index + 1).repeat(40);
      const body = push(index === 0 ? 'opened' : 'synchronize', sha);
      const sent = await sendForge(gateway.url, 'review', {
        body,
        secret: SECRET,
        event: 'pull_request',
      });
      expect(sent.status).toBe(202);
      // A replay: each push is reviewed before the next one arrives.
      await waitFor(
        () => (forge.reviews(repo, 2).length === index + 1 ? true : undefined),
        `review ${index + 1} of ${repo}`,
        { timeoutMs: 30_000, describe: () => gateway.stderr() },
      );
      if (index === 1) {
        const thread = forge
          .threads(repo, 2)
          .find((t) => t.comments[0]?.body.startsWith(DISMISSED));
        if (!thread) throw new Error('no thread of the finding to dismiss');
        forge.reply(thread.id, '/dismiss we export it elsewhere');
      }
    }
    if (store === undefined) {
      const rows = await settledJournal(home);
      expect(rows.map((row) => row.status)).toEqual(Array(PUSHES).fill('delivered'));
      // `deliveries show` of the last review lists each finding's fate.
      const shown = await showDelivery(home, rows[0]?.id ?? '');
      expect(shown.findings.map((f) => [f.body, f.fate])).toEqual(
        setup === 'before'
          ? []
          : [
              ['a is a poor name', 'still_open'],
              ['b is unused', 'still_open'],
              ['c should be a constant', 'still_open'],
              [DISMISSED, 'dismissed'],
            ],
      );
    }
    const comments = forge.reviews(repo, 2).flatMap((r) => r.comments);
    return {
      setup,
      reviews: forge.reviews(repo, 2).length,
      lineComments: comments.length,
      dismissedPosted: comments.filter((c) => c.body.startsWith(DISMISSED)).length,
    };
  } finally {
    await gateway.stop();
  }
}

function table(rows: Measured[]): string {
  const lines = [
    `[review findings] opened + ${PUSHES - 1} pushes, 4 findings raised each time, one dismissed after push 2`,
    '| setup | reviews | line comments posted | the dismissed finding posted |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map(
      (row) => `| ${row.setup} | ${row.reviews} | ${row.lineComments} | ${row.dismissedPosted} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

describe('a pull request reviewed after each of five pushes (issue 31)', () => {
  it('posts 4 line comments instead of 20, and never the dismissed finding again', async () => {
    const rows = [await measure('before'), await measure('after (SQLite)')];
    if (redis) {
      const prefix = uniquePrefix();
      try {
        rows.push(await measure('after (Redis)', { kind: 'redis', url: redis.url({ prefix }) }));
      } finally {
        await deleteKeys(redis.url(), prefix);
      }
    }
    process.stdout.write(table(rows));
    expect(rows[0]).toMatchObject({ reviews: 5, lineComments: 20, dismissedPosted: 5 });
    for (const after of rows.slice(1)) {
      expect(after).toMatchObject({ reviews: 5, lineComments: 4, dismissedPosted: 1 });
    }
    // On a machine with a Redis, both stores were measured.
    expect(rows).toHaveLength(redis ? 3 : 2);
  }, 180_000);
});
