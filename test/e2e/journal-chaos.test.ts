/**
 * The journal's promise under a crash: a real gateway process takes a stream of signed
 * deliveries, is killed with SIGKILL mid-flight (some deliveries queued, some running), and is
 * started again on the same home. Every delivery answered 202 must then reach the target exactly
 * once, and the journal must say so.
 *
 * What "exactly once" can honestly mean: the gateway knows a message reached the target only
 * when the target acknowledges it. So the fake target (Slack's Web API) records what it
 * acknowledged, and before the kill it stops answering and we wait until every message it did
 * acknowledge is committed as delivered in the journal. Two deliveries' agent runs wait for a gate
 * file that opens only after the restart. The kill then surely cuts deliveries in the queue, in
 * the agent, and at the target (received but unacknowledged), while the stream is still sending;
 * none may be lost, and none may be acknowledged twice.
 *
 * The agent is another matter: a run the kill cut short (its answer not yet in the journal) is
 * run again after the restart, and its orphaned process may still finish and record itself. So
 * the agent file must show every accepted id, and may show an id twice only for a delivery the
 * journal had as running without an answer at the moment of the kill.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendingAgent, readAppendedIds } from '../support/journal-agents.js';
import { fakeSlackPlatform, startFakeSlack } from '../support/journal-messenger.js';
import { listDeliveries, readJournal } from '../support/journal-read.js';
import { streamDeliveries } from '../support/journal-stream.js';
import { cleanupHomes, makeHome, startGateway, waitFor } from '../support/gateway.js';

const SECRET = 'chaos-secret-0123456789';
const TOTAL = 240;
/** These deliveries' agent runs wait for the gate file: the kill is sure to cut them mid-run. */
const GATED = new Set([25, 45]);

afterAll(() => cleanupHomes());

/** The delivery id in an `answer for <id>` message. */
function idOf(text: string): string {
  return text.replace(/^answer for /, '');
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

describe('kill -9 mid-flight, then restart', () => {
  it('delivers every 202 exactly once to the target, and the journal shows each delivered', async () => {
    const slack = await startFakeSlack();
    const home = makeHome();
    const agentFile = path.join(home, 'agent-runs.txt');
    const gateFile = path.join(home, 'gate');
    const prefix = `chaos-${process.pid}`;
    const config = {
      agent: appendingAgent(agentFile, {
        sleepS: 0.05,
        gate: { idPattern: `${prefix}-gated-*`, file: gateFile },
      }),
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            rate_limit: 100_000,
            concurrency: 4,
            retry_backoff_ms: 50,
            routes: { chaos: { deliver: 'messenger_c', prompt: 'Review PR #{number}' } },
          },
        },
        messenger_c: fakeSlackPlatform(slack),
      },
    };
    let gateway = await startGateway({ home, config });
    try {
      const stream = streamDeliveries({
        url: gateway.url,
        route: 'chaos',
        secret: SECRET,
        total: TOTAL,
        concurrency: 3,
        deliveryIdOf: (n) => (GATED.has(n) ? `${prefix}-gated-${n}` : `${prefix}-${n}`),
        pullRequests: 60,
      });
      const acknowledgedIds = () =>
        slack.messages.filter((m) => m.outcome === 'acknowledged').map((m) => idOf(m.text));

      // Let work pile up: some deliveries done, many accepted and waiting, one agent run stuck.
      await waitFor(
        () => (acknowledgedIds().length >= 15 && stream.accepted.length >= 60 ? true : undefined),
        'some deliveries to reach the target',
        { timeoutMs: 30_000 },
      );
      await waitFor(
        async () =>
          (await readJournal(home)).some(
            (r) => r.deliveryId.includes('-gated-') && r.status === 'running',
          )
            ? true
            : undefined,
        'a gated agent run to be under way',
      );
      // The target stops answering; what it already took must be committed before the kill.
      slack.hold();
      await waitFor(
        async () => {
          if (!slack.messages.some((m) => m.outcome === 'held')) return undefined;
          const delivered = new Set(
            (await readJournal(home))
              .filter((r) => r.status === 'delivered')
              .map((r) => r.deliveryId),
          );
          return acknowledgedIds().every((id) => delivered.has(id)) ? true : undefined;
        },
        'every acknowledged message to be journaled as delivered, and one held at the target',
        { timeoutMs: 30_000 },
      );
      await gateway.kill();
      // The fake sees a held message's sender gone only when its socket's close arrives; until
      // then, release() would answer it and count an acknowledgement nobody received.
      await waitFor(
        () => (slack.messages.some((m) => m.outcome === 'held') ? undefined : true),
        "the killed gateway's held messages to be seen dropped",
        { timeoutMs: 10_000 },
      );
      stream.stop();
      await stream.done;

      const atKill = await readJournal(home);
      const queuedAtKill = atKill.filter((r) => r.status === 'queued');
      const runningAtKill = atKill.filter((r) => r.status === 'running');
      // The kill landed mid-flight: work waiting and work under way.
      expect(queuedAtKill.length).toBeGreaterThan(0);
      expect(runningAtKill.length).toBeGreaterThan(0);
      expect(stream.refused).toEqual([]);
      // A 202 means committed: every accepted id is in the journal, even if its 202 came late.
      const journaled = new Set(atKill.map((r) => r.deliveryId));
      expect(stream.accepted.filter((id) => !journaled.has(id))).toEqual([]);
      const cutMidAgent = new Set(
        runningAtKill.filter((r) => r.answer === null).map((r) => r.deliveryId),
      );
      const cutAtTarget = new Set(
        runningAtKill.filter((r) => r.answer !== null).map((r) => r.deliveryId),
      );

      expect(cutMidAgent.size).toBeGreaterThan(0);
      expect(cutAtTarget.size).toBeGreaterThan(0);

      fs.writeFileSync(gateFile, '');
      slack.release();
      gateway = await startGateway({ home });
      const accepted = [...stream.accepted];
      await waitFor(
        () => (accepted.every((id) => slack.acknowledged(id) >= 1) ? true : undefined),
        `all ${accepted.length} accepted deliveries to reach the target`,
        { timeoutMs: 60_000 },
      );
      await waitFor(
        async () =>
          (await readJournal(home)).every((r) => r.status === 'delivered') ? true : undefined,
        'the journal to have nothing left to do',
      );
      await gateway.stop();

      // Target side: each accepted delivery acknowledged exactly once; nothing acknowledged twice.
      const acknowledged = countBy(acknowledgedIds());
      expect(accepted.filter((id) => acknowledged.get(id) !== 1)).toEqual([]);
      expect([...acknowledged].filter(([, count]) => count > 1)).toEqual([]);
      // A message the target received without acknowledging was cut at the target by the kill.
      const unacknowledged = slack.messages.filter((m) => m.outcome === 'dropped');
      for (const message of unacknowledged) expect(cutAtTarget.has(idOf(message.text))).toBe(true);
      expect(slack.messages.every((m) => m.outcome !== 'failed' && m.outcome !== 'held')).toBe(
        true,
      );
      expect(slack.messages.every((m) => m.channel === 'C1')).toBe(true);

      // Journal side, through the CLI: one row per accepted id, each delivered.
      const listed = await listDeliveries(home);
      const rowsPerId = countBy(listed.map((row) => row.deliveryId));
      expect(accepted.filter((id) => rowsPerId.get(id) !== 1)).toEqual([]);
      const listedById = new Map(listed.map((row) => [row.deliveryId, row]));
      expect(accepted.filter((id) => listedById.get(id)?.status !== 'delivered')).toEqual([]);

      // Agent side: every accepted id ran; twice only when the kill cut its run.
      const runs = countBy(readAppendedIds(agentFile));
      expect(accepted.filter((id) => (runs.get(id) ?? 0) < 1)).toEqual([]);
      const ranTwice = [...runs].filter(([, count]) => count > 1).map(([id]) => id);
      expect(ranTwice.filter((id) => !cutMidAgent.has(id))).toEqual([]);
      expect([...runs.values()].every((count) => count <= 2)).toBe(true);
      // Every message names a delivery the journal knows.
      const known = new Set(listed.map((row) => row.deliveryId));
      expect(slack.messages.filter((m) => !known.has(idOf(m.text))).map((m) => m.text)).toEqual([]);
    } finally {
      fs.writeFileSync(gateFile, '');
      await gateway.kill();
      await slack.close();
    }
  }, 120_000);
});
