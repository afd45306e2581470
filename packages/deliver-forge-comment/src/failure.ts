/**
 * Turns a failed CLI run into a message for people: what failed, why as far as the CLI's stderr
 * tells, and which config key or command fixes it. Tokens are masked out of anything quoted.
 */
import { redact } from '@webhook-gateway/target-kit';
import type { CliProfile } from './cli-profile.js';
import type { DeliveryFailureReason } from './errors.js';
import type { CliOutcome } from './run-cli.js';

export interface FailureContext {
  profile: CliProfile;
  /** The CLI as configured (`gh`, or a path). */
  cli: string;
  /** The host the CLI talks to, for the message. */
  host: string;
  timeoutS: number;
  /** What the comment was for: `pull request #2 of octo/hello`. */
  subject: string;
  /** Values that must never appear in a message (the configured token). */
  secrets: readonly string[];
}

export interface FailureDescription {
  reason: DeliveryFailureReason;
  message: string;
}

/** stderr as one line: its non-empty lines joined, the last `maxChars` of it, secrets masked. */
export function stderrSummary(stderr: string, secrets: readonly string[], maxChars = 500): string {
  const oneLine = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  const text = redact(oneLine, secrets);
  return text.length <= maxChars ? text : `…${text.slice(-maxChars)}`;
}

function isPath(cli: string): boolean {
  return cli.includes('/') || cli.includes('\\');
}

/** Describes a failed run; `outcome` must not be `ok`. */
export function describeCliFailure(
  outcome: Exclude<CliOutcome, { kind: 'ok' }>,
  context: FailureContext,
): FailureDescription {
  const { profile, cli } = context;
  const key = `platforms.${profile.platform}`;
  const command = `${cli} ${profile.action}`;
  switch (outcome.kind) {
    case 'spawn-error':
      if (outcome.code === 'ENOENT') {
        return {
          reason: 'cli-not-installed',
          message: `${profile.platform} CLI "${cli}" not found${isPath(cli) ? '' : ' on PATH'}; install it or set ${key}.cli`,
        };
      }
      return {
        reason: 'cli-not-installed',
        message: `${profile.platform} CLI "${cli}" could not be started (${outcome.code}); make sure it is an executable program or set ${key}.cli`,
      };
    case 'timeout':
      return {
        reason: 'timeout',
        message: `${command} for ${context.subject} timed out after ${context.timeoutS} s; raise ${key}.timeout_s if ${context.host} is slow`,
      };
    case 'canceled':
      return {
        reason: 'canceled',
        message: `${command} for ${context.subject} was stopped before it finished (the gateway is stopping or the run was aborted)`,
      };
    case 'exit': {
      const stderr = stderrSummary(outcome.stderr, context.secrets);
      const said = stderr === '' ? '' : `: ${stderr}`;
      if (profile.notAuthenticated.test(outcome.stderr)) {
        return {
          reason: 'not-authenticated',
          message: `${profile.platform} CLI "${cli}" is not authenticated to ${context.host}: run "${cli} auth login" on the gateway's machine or set ${key}.token${said}`,
        };
      }
      if (profile.notFound.test(outcome.stderr)) {
        return {
          reason: 'not-found',
          message: `${context.subject} was not found on ${context.host} (check the route's deliver_extra, and that the token can see the repository)${said}`,
        };
      }
      const hint = profile.hints?.find((h) => h.stderr.test(outcome.stderr))?.hint;
      const how =
        outcome.exitCode !== undefined
          ? `exited with code ${outcome.exitCode}`
          : `was killed by ${outcome.signal ?? 'a signal'}`;
      return {
        reason: 'cli-failed',
        message: `${command} for ${context.subject} ${how}${said}${hint ? ` (${hint})` : ''}`,
      };
    }
  }
}
