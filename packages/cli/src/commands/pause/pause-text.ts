/** How pauses read on the command line: `pause`, `resume` and the header of `deliveries list`. */
import type { Pause } from '@webhook-gateway/core';
import type { ResumeResult } from './pause-actions.js';

function whatIsPaused(pause: Pause): string {
  return pause.route === null ? 'every route' : `route ${pause.route}`;
}

/** `route reviews since 2026-11-28T04:41:00.000Z — model provider outage` */
function describePause(pause: Pause): string {
  const reason = pause.reason === null ? '' : ` — ${pause.reason}`;
  return `${whatIsPaused(pause)} since ${new Date(pause.since).toISOString()}${reason}`;
}

/** The header lines `deliveries list` prints above its table while anything is paused. */
export function pausedHeader(pauses: readonly Pause[]): string[] {
  return pauses.map((pause) => `paused: ${describePause(pause)}`);
}

/** What `pause` prints. */
export function pauseText(result: { pause: Pause; added: boolean }): string {
  if (!result.added) return `already paused: ${describePause(result.pause)}; nothing changed`;
  return [
    `paused: ${describePause(result.pause)}`,
    'deliveries are still accepted and journaled; none starts until resume, running attempts finish',
  ].join('\n');
}

/** What `resume` prints. */
export function resumeText(result: ResumeResult, route: string | null): string {
  const lines =
    result.lifted.length === 0
      ? [
          route === null
            ? 'nothing is paused; nothing to resume'
            : `route ${route} is not paused; nothing to resume`,
        ]
      : result.lifted.map(
          (pause) =>
            `resumed: ${whatIsPaused(pause)} (paused since ${new Date(pause.since).toISOString()})`,
        );
  if (result.stillPaused) {
    lines.push(
      `route ${route ?? ''} still waits: ${describePause(result.stillPaused)} (resume without --route lifts it)`,
    );
  }
  return lines.join('\n');
}

/** A pause as `--json` prints it. */
export function pauseJson(pause: Pause): {
  route: string | null;
  reason: string | null;
  since: string;
} {
  return { route: pause.route, reason: pause.reason, since: new Date(pause.since).toISOString() };
}
