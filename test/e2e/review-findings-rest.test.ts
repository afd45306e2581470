/**
 * Issue 31's replay of findings remembered across pushes, on the forges answered over REST
 * (issue 32, docs/reviews.md#forge-by-forge): one pull request opened and pushed to
 * four times, each push the recorded webhook with a new head, signed, to the built gateway (SQLite journal), reviewed
 * by `gitea_review` against the fake Gitea and by `bitbucket_review` against the fake Bitbucket
 * Cloud and the fake Bitbucket Data Center, with a `command` agent that raises the same four findings every time; a person answers
 * `/dismiss` to one after push 2. Line comments posted: before (`deliver_extra.findings: false`)
 * against after. The counts are asserted; the table is printed.
 *
 *   npx vitest run test/e2e/review-findings-rest.test.ts
 */
import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  startFakeBitbucket,
  type FakeBitbucket,
} from '../../packages/deliver-bitbucket/src/test-support/fake-bitbucket.js';
import {
  startFakeBitbucketDataCenter,
  type FakeBitbucketDataCenter,
} from '../../packages/deliver-bitbucket/src/test-support/fake-bitbucket-data-center.js';
import {
  startFakeGitea,
  type FakeGitea,
} from '../../packages/deliver-gitea/src/test-support/fake-gitea.js';
import { cleanupHomes, makeHome, startGateway, waitFor } from '../support/gateway.js';
import { settledJournal, showDelivery } from '../support/journal-read.js';
import { fixture, post } from '../support/requests.js';

const SECRET = 'e2e-review-findings-rest-secret';
const PUSHES = 5;
const DISMISSED = 'export b too';
const FINDINGS = [
  { path: 'src/a.ts', line: 1, body: 'a is a poor name' },
  { path: 'src/a.ts', line: 2, body: 'b is unused' },
  { path: 'src/a.ts', line: 3, body: 'c should be a constant' },
  { path: 'src/a.ts', line: 4, body: DISMISSED },
];
const LINES = ['const a = 1;', 'const b = 2;', 'let c = 3;', 'export { a };'];
const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/src/a.ts',
  `@@ -0,0 +1,${LINES.length} @@`,
  ...LINES.map((line) => `+${line}`),
  '',
].join('\n');
const GITEA_TOKEN = 'gitea-e2e-token-0123456789';
const BITBUCKET_TOKEN = 'bitbucket-e2e-token-0123456789';
const DATA_CENTER_TOKEN = 'data-center-e2e-token-0123456789';
const BOT = { uuid: '{e2e-bot}', account_id: '557058:e2e-bot', nickname: 'review-bot' };

afterAll(() => cleanupHomes());

type Forge = 'Gitea' | 'Bitbucket Cloud' | 'Bitbucket Data Center';
type Setup = 'before' | 'after';

interface Measured {
  forge: Forge;
  setup: Setup;
  reviews: number;
  lineComments: number;
  /** How many times the finding dismissed after push 2 was posted. */
  dismissedPosted: number;
}

const hex = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');

/** How one forge is driven: its fake, its route, its signed pushes and a person's reply. */
interface ForgeUnderTest {
  /** The fake's certificate, for the gateway process to trust. */
  certFile: string;
  platforms: Record<string, unknown>;
  route: Record<string, unknown>;
  /** Sends push `index` (0: opened) signed as the forge signs it; the delivery id. */
  push(url: string, index: number): Promise<string>;
  reviews(): number;
  /** The line comments the gateway's account posted, their bodies. */
  lineComments(): string[];
  dismiss(text: string): void;
  close(): Promise<void>;
}

async function gitea(): Promise<ForgeUnderTest> {
  const fake: FakeGitea = await startFakeGitea({
    token: GITEA_TOKEN,
    login: 'review-bot',
    pulls: { 'jcitizen/my-repo#1': { diff: DIFF } },
    resolveApi: true,
  });
  const payload = JSON.parse(fixture('gitea/pull_request_opened.json').toString('utf8')) as {
    action: string;
    pull_request: { head: { sha: string } };
  };
  return {
    certFile: fake.certFile,
    platforms: { gitea: { base_url: fake.url, token: GITEA_TOKEN } },
    route: {
      events: ['pull_request'],
      actions: ['opened', 'synchronized'],
      deliver: 'gitea_review',
    },
    async push(url, index) {
      payload.action = index === 0 ? 'opened' : 'synchronized';
      payload.pull_request.head.sha = String(index + 1).repeat(40);
      const body = JSON.stringify(payload);
      const deliveryId = `gitea-findings-${process.pid}-${Date.now()}-${index}`;
      const sent = await post(`${url}/webhooks/review`, body, {
        'Content-Type': 'application/json',
        'X-Gitea-Event': 'pull_request',
        'X-Gitea-Delivery': deliveryId,
        'X-Gitea-Signature': hex(body),
      });
      expect(sent.status).toBe(202);
      return deliveryId;
    },
    // A person's reply is a review of its own, with an empty body.
    reviews: () => fake.reviews.filter((review) => review.body !== '').length,
    lineComments: () =>
      fake.reviewComments.filter((c) => c.user.login === 'review-bot').map((c) => c.body),
    dismiss(text) {
      const first = fake.reviewComments.find((c) => c.body.startsWith(text));
      if (!first) throw new Error(`no review comment "${text}"`);
      fake.replyToReviewComment(first.id, '/dismiss we export it elsewhere', 'jcitizen');
    },
    close: () => fake.close(),
  };
}

async function bitbucket(): Promise<ForgeUnderTest> {
  const fake: FakeBitbucket = await startFakeBitbucket({
    token: BITBUCKET_TOKEN,
    bot: BOT,
    // The token is a user's: GET /user names it.
    tokenUser: BOT,
    pulls: { 'brydzewski/foo#1': { diff: DIFF } },
  });
  const payload = JSON.parse(fixture('bitbucket/pullrequest_created.json').toString('utf8')) as {
    pullrequest: { source: { commit: { hash: string } } };
  };
  const own = () => fake.comments.filter((c) => c.user.uuid === BOT.uuid && !c.deleted);
  return {
    certFile: fake.certFile,
    // No platforms.bitbucket.bot: the gateway asks GET /user for its account.
    platforms: { bitbucket: { base_url: fake.apiBase, token: BITBUCKET_TOKEN } },
    route: {
      events: ['pullrequest:created', 'pullrequest:updated'],
      deliver: 'bitbucket_review',
    },
    async push(url, index) {
      payload.pullrequest.source.commit.hash = String(index + 1).repeat(12);
      const body = JSON.stringify(payload);
      const deliveryId = `bb-findings-${process.pid}-${Date.now()}-${index}`;
      const sent = await post(`${url}/webhooks/review`, body, {
        'Content-Type': 'application/json',
        'X-Event-Key': index === 0 ? 'pullrequest:created' : 'pullrequest:updated',
        'X-Request-UUID': deliveryId,
        'X-Hub-Signature': `sha256=${hex(body)}`,
      });
      expect(sent.status).toBe(202);
      return deliveryId;
    },
    // Each review ends with its summary, a top-level comment on no line.
    reviews: () => own().filter((c) => !c.inline && c.parent === undefined).length,
    lineComments: () =>
      own()
        .filter((c) => c.inline)
        .map((c) => c.raw),
    dismiss(text) {
      const first = fake.comments.find((c) => c.inline && c.raw.startsWith(text));
      if (!first) throw new Error(`no inline comment "${text}"`);
      fake.reply(first.id, '/dismiss we export it elsewhere', 'brydzewski');
    },
    close: () => fake.close(),
  };
}

async function bitbucketDataCenter(): Promise<ForgeUnderTest> {
  const fake: FakeBitbucketDataCenter = await startFakeBitbucketDataCenter({
    token: DATA_CENTER_TOKEN,
    bot: 'review-bot',
    pulls: { 'PROJ/repository#1': { diff: DIFF } },
  });
  const payload = JSON.parse(fixture('bitbucket/pr_opened.json').toString('utf8')) as {
    eventKey: string;
    pullRequest: { fromRef: { latestCommit: string } };
  };
  const own = () => fake.comments.filter((c) => c.author.name === 'review-bot');
  return {
    certFile: fake.certFile,
    // No data_center.bot: the gateway reads its user off X-AUSERNAME.
    platforms: {
      bitbucket: { data_center: { base_url: fake.serverUrl, token: DATA_CENTER_TOKEN } },
    },
    route: { events: ['pr:opened', 'pr:from_ref_updated'], deliver: 'bitbucket_review' },
    async push(url, index) {
      payload.eventKey = index === 0 ? 'pr:opened' : 'pr:from_ref_updated';
      payload.pullRequest.fromRef.latestCommit = String(index + 1).repeat(40);
      const body = JSON.stringify(payload);
      const deliveryId = `dc-findings-${process.pid}-${Date.now()}-${index}`;
      const sent = await post(`${url}/webhooks/review`, body, {
        'Content-Type': 'application/json',
        'X-Event-Key': payload.eventKey,
        'X-Request-Id': deliveryId,
        'X-Hub-Signature': `sha256=${hex(body)}`,
      });
      expect(sent.status).toBe(202);
      return deliveryId;
    },
    // Each review ends with its summary, a comment on no line that replies to none.
    reviews: () => own().filter((c) => !c.anchor && c.parent === undefined).length,
    lineComments: () =>
      own()
        .filter((c) => c.anchor)
        .map((c) => c.text),
    dismiss(text) {
      const first = fake.comments.find((c) => c.anchor && c.text.startsWith(text));
      if (!first) throw new Error(`no line comment "${text}"`);
      fake.reply(first.id, '/dismiss we export it elsewhere', 'admin');
    },
    close: () => fake.close(),
  };
}

const FORGES: Record<Forge, () => Promise<ForgeUnderTest>> = {
  Gitea: gitea,
  'Bitbucket Cloud': bitbucket,
  'Bitbucket Data Center': bitbucketDataCenter,
};

async function measure(forge: Forge, setup: Setup): Promise<Measured> {
  const target = await FORGES[forge]();
  const review = JSON.stringify({ summary: 'Four remarks.', comments: FINDINGS });
  const home = makeHome();
  const gateway = await startGateway({
    config: {
      agent: {
        runner: 'command',
        command: ['/bin/sh', '-c', 'cat >/dev/null; printf "%s" "$1"', 'agent', review],
        timeout_s: 30,
      },
      platforms: {
        ...target.platforms,
        webhook: {
          extra: {
            secret: SECRET,
            routes: {
              review: {
                ...target.route,
                prompt: 'Review the pull request.',
                ...(setup === 'before' ? { deliver_extra: { findings: false } } : {}),
              },
            },
          },
        },
      },
    },
    home,
    env: { NODE_EXTRA_CA_CERTS: target.certFile },
  });
  try {
    for (let index = 0; index < PUSHES; index++) {
      await target.push(gateway.url, index);
      // A replay: each push is reviewed before the next one arrives.
      await waitFor(
        () => (target.reviews() === index + 1 ? true : undefined),
        `${forge} review ${index + 1}`,
        { timeoutMs: 30_000, describe: () => gateway.stderr() },
      );
      if (index === 1) target.dismiss(DISMISSED);
    }
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
    const comments = target.lineComments();
    return {
      forge,
      setup,
      reviews: target.reviews(),
      lineComments: comments.length,
      dismissedPosted: comments.filter((body) => body.startsWith(DISMISSED)).length,
    };
  } finally {
    await gateway.stop();
    await target.close();
  }
}

function table(rows: Measured[]): string {
  const lines = [
    `[review findings over REST] opened + ${PUSHES - 1} pushes, 4 findings raised each time, one dismissed after push 2`,
    '| forge | setup | reviews | line comments posted | the dismissed finding posted |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.forge} | ${row.setup} | ${row.reviews} | ${row.lineComments} | ${row.dismissedPosted} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

describe('a Gitea, a Bitbucket Cloud and a Bitbucket Data Center pull request reviewed after each of five pushes', () => {
  it('posts 4 line comments instead of 20 on each, and never the dismissed finding again', async () => {
    const rows: Measured[] = [];
    for (const forge of ['Gitea', 'Bitbucket Cloud', 'Bitbucket Data Center'] as const) {
      rows.push(await measure(forge, 'before'), await measure(forge, 'after'));
    }
    process.stdout.write(table(rows));
    for (const row of rows) {
      expect(row).toMatchObject(
        row.setup === 'before'
          ? { reviews: 5, lineComments: 20, dismissedPosted: 5 }
          : { reviews: 5, lineComments: 4, dismissedPosted: 1 },
      );
    }
  }, 360_000);
});
