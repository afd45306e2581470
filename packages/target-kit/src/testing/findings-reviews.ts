/**
 * What the forges' findings tests (`remember-findings*.test.ts`) share: `src/a.ts` as a new
 * file's diff, the pushes they replay, and reviews of one pull request at new heads, each as the
 * worker hands it to the target, with the findings journal of a real (memory) store.
 */
import type {
  DeliverRequest,
  FindingsJournal,
  JsonObject,
  LineComment,
  Logger,
} from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { deliverRequest, fakeDelivery } from './deliver-request.js';

/** `src/a.ts` as a new file with these lines. */
export function newFileDiff(lines: readonly string[]): string {
  return [
    'diff --git a/src/a.ts b/src/a.ts',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/src/a.ts',
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    '',
  ].join('\n');
}

/** The three findings the tests raise on `src/a.ts`: one kept, one fixed, one dismissed. */
export const FINDINGS = {
  kept: { path: 'src/a.ts', body: 'b is unused' },
  fixed: { path: 'src/a.ts', body: 'c should be a constant' },
  dismissed: { path: 'src/a.ts', body: 'export b too' },
} as const;

/**
 * The pushes every forge replays, so each forge's test says only what its threads do between
 * them: the pull request's lines at each push and the line comments its review answers.
 */
export const PUSHES = {
  /** All three findings raised. */
  first: {
    lines: ['const a = 1;', 'const b = 2;', 'let c = 3;'],
    comments: [
      { ...FINDINGS.kept, line: 2 },
      { ...FINDINGS.fixed, line: 3 },
      { ...FINDINGS.dismissed, line: 1 },
    ],
  },
  /** A line added above b (its finding moves to line 3), c fixed. */
  second: {
    lines: ['const a = 1;', '// b first', 'const b = 2;', 'const c = 3;'],
    comments: [
      { ...FINDINGS.kept, line: 3 },
      { ...FINDINGS.dismissed, line: 1 },
    ],
  },
  /** The same again plus a new one: only the new one is posted. */
  third: {
    comments: [
      { ...FINDINGS.kept, line: 3 },
      { ...FINDINGS.dismissed, line: 1 },
      { path: 'src/a.ts', line: 2, body: 'say why' },
    ],
    /** The gateway's line comments after it, as `path:line body`: each finding once. */
    posted: [
      'src/a.ts:2 b is unused',
      'src/a.ts:3 c should be a constant',
      'src/a.ts:1 export b too',
      'src/a.ts:2 say why',
    ],
    /** The journal's findings after it, as `[body, state]`. */
    journal: [
      ['b is unused', 'open'],
      ['c should be a constant', 'fixed'],
      ['export b too', 'dismissed'],
      ['say why', 'open'],
    ],
  },
} as const;

/** The pull request's findings journal and a review of it at each call, through `deliver`. */
export function findingsReviews<Result>(options: {
  /** The recorded webhook the reviews answer. */
  payload: JsonObject;
  /** The journal's order key of the pull request. */
  orderKey: string;
  /** Each review's delivery id is this and the push's number. */
  deliveryIdPrefix: string;
  log: Logger;
  /** The target under test, with its settings. */
  deliver: (request: DeliverRequest) => Promise<Result>;
}) {
  const store = new MemoryStore();
  const journal: FindingsJournal = {
    read: () => store.findings(options.orderKey),
    save: (findings) => store.saveFindings(options.orderKey, findings),
  };
  let push = 0;
  /** One review at a new head. */
  const review = (lineComments: readonly LineComment[], extra: Record<string, unknown> = {}) =>
    options.deliver({
      ...deliverRequest({
        answer: 'Remarks.',
        lineComments: [...lineComments],
        extra,
        log: options.log,
        delivery: fakeDelivery({
          route: 'reviews',
          payload: options.payload,
          deliveryId: `${options.deliveryIdPrefix}-${++push}`,
        }),
      }),
      findings: journal,
    });
  return { journal, review };
}
