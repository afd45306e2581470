/**
 * Ordering: deliveries about the same pull request (same route, repository and number) run one
 * at a time in order of arrival, while other pull requests run beside them; a route's own
 * `concurrency` caps its runs. Checked with the start and end times an agent records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTimedRuns, timingAgent, type TimedRun } from '../support/journal-agents.js';
import { pullRequestBody } from '../support/journal-stream.js';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'ordering-secret-0123456789';
const RUN_MS = 400;
let gateway: StartedGateway;
let runsFile: string;

beforeAll(async () => {
  const home = makeHome();
  const timing = timingAgent(home, RUN_MS);
  runsFile = timing.runsFile;
  gateway = await startGateway({
    home,
    config: {
      agent: timing.agent,
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            concurrency: 4,
            routes: {
              reviews: { prompt: '{action} PR #{number}' },
              serial: { concurrency: 1 },
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

function overlaps(a: TimedRun, b: TimedRun): boolean {
  return a.startedAt < b.endedAt && b.startedAt < a.endedAt;
}

/** The runs of `ids`, in the order they started. */
function runsOf(ids: readonly string[]): TimedRun[] {
  return readTimedRuns(runsFile)
    .filter((run) => ids.includes(run.deliveryId))
    .sort((a, b) => a.startedAt - b.startedAt);
}

async function waitForRuns(ids: readonly string[]): Promise<void> {
  await waitFor(
    () => (runsOf(ids).length === ids.length ? true : undefined),
    `${ids.length} agent runs`,
    { timeoutMs: 30_000 },
  );
}

describe('ordering per pull request', () => {
  it('runs one PR’s deliveries one at a time in order of arrival, another PR’s beside them', async () => {
    const sends: { pr: number; action: string }[] = [
      { pr: 1, action: 'opened' },
      { pr: 2, action: 'opened' },
      { pr: 1, action: 'synchronize' },
      { pr: 2, action: 'synchronize' },
      { pr: 1, action: 'labeled' },
      { pr: 1, action: 'closed' },
    ];
    const ids = { 1: [] as string[], 2: [] as string[] };
    for (const { pr, action } of sends) {
      const deliveryId = newDeliveryId();
      const sent = await sendForge(gateway.url, 'reviews', {
        body: pullRequestBody(pr, action),
        secret: SECRET,
        event: 'pull_request',
        deliveryId,
      });
      expect(sent.status).toBe(202);
      ids[pr as 1 | 2].push(deliveryId);
    }
    await waitForRuns([...ids[1], ...ids[2]]);

    const first = runsOf(ids[1]);
    const second = runsOf(ids[2]);
    expect(first.map((run) => run.deliveryId)).toEqual(ids[1]);
    expect(first.map((run) => run.prompt)).toEqual([
      'opened PR #1',
      'synchronize PR #1',
      'labeled PR #1',
      'closed PR #1',
    ]);
    expect(second.map((run) => run.deliveryId)).toEqual(ids[2]);
    for (const runs of [first, second]) {
      for (let i = 1; i < runs.length; i++) {
        const [before, after] = [runs[i - 1], runs[i]];
        if (!before || !after) throw new Error('missing run');
        // The next one starts only after the previous one has ended.
        expect(after.startedAt).toBeGreaterThanOrEqual(before.endedAt);
      }
    }
    // The two pull requests did not wait for each other.
    expect(first.some((a) => second.some((b) => overlaps(a, b)))).toBe(true);
  });
});

describe('per-route concurrency', () => {
  it('never runs more deliveries of a route with concurrency 1 at once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const deliveryId = newDeliveryId();
      const sent = await sendForge(gateway.url, 'serial', {
        body: JSON.stringify({ ref: 'refs/heads/main', after: `c0ffee${i}` }),
        secret: SECRET,
        event: 'push',
        deliveryId,
      });
      expect(sent.status).toBe(202);
      ids.push(deliveryId);
    }
    await waitForRuns(ids);
    const runs = runsOf(ids);
    for (const a of runs) {
      for (const b of runs) if (a !== b) expect(overlaps(a, b)).toBe(false);
    }
  });
});
