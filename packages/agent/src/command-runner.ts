/**
 * The `command` runner (`docs/contract.md#agent-runners`): spawns the configured program with the
 * rendered prompt (the route's skill, then the template's output; not framed, see framing.ts) on
 * stdin; its stdout is the answer, a non-zero exit a failure. Stdout that is a review document
 * gives a summary and line comments (review-document.ts).
 */
import type { RunRequest, RunResult } from '@webhook-gateway/core';
import { agentSettings } from './agent-settings.js';
import { readReviewOutput } from './review-document.js';

/** The last lines of a stream, for an error message that fits on a screen. */
function tail(text: string, maxChars = 500): string {
  const trimmed = text.trim();
  return trimmed.length <= maxChars ? trimmed : `…${trimmed.slice(-maxChars)}`;
}

export async function runCommand(request: RunRequest): Promise<RunResult> {
  const argv = agentSettings(request.agent).command;
  if (!argv || argv.length === 0 || !argv[0]) {
    throw new Error(
      'agent.runner is "command" but agent.command is not set (a list: [program, arg, …])',
    );
  }
  const [program, ...args] = argv as [string, ...string[]];
  // Loaded on first use: a gateway that never runs it does not pay its start-up.
  const { execa } = await import('execa');
  const result = await execa(program, args, {
    input: request.prompt,
    env: {
      // The delivery's forge identity (an App's installation token), for the command's gh.
      ...request.credentials,
      WEBHOOK_ROUTE: request.delivery.route,
      WEBHOOK_EVENT: request.delivery.event,
      WEBHOOK_DELIVERY_ID: request.delivery.deliveryId,
    },
    timeout: request.agent.timeout_s * 1000,
    cancelSignal: request.signal,
    reject: false,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.failed) {
    if (result.code === 'ENOENT')
      throw new Error(`agent command "${program}" was not found (agent.command)`);
    if (result.timedOut)
      throw new Error(`agent command "${program}" timed out after ${request.agent.timeout_s} s`);
    if (result.isCanceled) throw new Error(`agent command "${program}" was stopped`);
    const how =
      result.exitCode !== undefined
        ? `exited with code ${result.exitCode}`
        : `was killed by ${result.signal ?? 'a signal'}`;
    const stderr = tail(String(result.stderr ?? ''));
    throw new Error(`agent command "${program}" ${how}${stderr ? `: ${stderr}` : ''}`);
  }
  const output = readReviewOutput(String(result.stdout ?? ''));
  if (output.notADocument) {
    request.log.warn(
      { problems: output.notADocument },
      `agent command "${program}" printed JSON with "summary" that is not a review document; it is the answer as it is`,
    );
  }
  return {
    answer: output.summary,
    accounting: { runner: 'command' },
    ...(output.lineComments.length > 0 ? { lineComments: output.lineComments } : {}),
    ...(output.conclusion ? { conclusion: output.conclusion } : {}),
  };
}
