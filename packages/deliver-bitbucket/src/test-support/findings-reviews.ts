/**
 * What both Bitbucket's findings tests (`remember-findings*.test.ts`) share: `src/a.ts` as a new
 * file's diff, and reviews of one pull request at new heads through `bitbucket_review`, each as
 * the worker hands it to the target, with the findings journal of a real (memory) store.
 */
import type { FindingsJournal, JsonObject, LineComment, Logger } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { deliverRequest, fakeDelivery } from '@webhook-gateway/target-kit/testing';
import { deliverBitbucketReview } from '../deliver-bitbucket-review.js';
import { bitbucketOptionsSchema, bitbucketSettingsSchema } from '../index.js';

/** `src/a.ts` as a new file with these lines. */
export function diffOf(lines: string[]): string {
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

/** The pull request's findings journal and a review of it at each call. */
export function findingsReviews(options: {
  /** The recorded webhook the reviews answer. */
  payload: JsonObject;
  /** The journal's order key of the pull request. */
  orderKey: string;
  /** `platforms.bitbucket`. */
  settings: Record<string, unknown>;
  log: Logger;
}) {
  const store = new MemoryStore();
  const journal: FindingsJournal = {
    read: () => store.findings(options.orderKey),
    save: (findings) => store.saveFindings(options.orderKey, findings),
  };
  const settings = bitbucketSettingsSchema.parse(options.settings);
  let push = 0;
  /** One review at a new head. */
  const review = (lineComments: LineComment[], extra: Record<string, unknown> = {}) =>
    deliverBitbucketReview(
      {
        ...deliverRequest({
          answer: 'Remarks.',
          lineComments,
          extra,
          log: options.log,
          delivery: fakeDelivery({
            route: 'reviews',
            payload: options.payload,
            deliveryId: `bb-push-${++push}`,
          }),
        }),
        findings: journal,
      },
      settings,
      bitbucketOptionsSchema.parse({}),
    );
  return { journal, review };
}
