/**
 * The `command` runner (DESIGN §7): spawns the configured program with the rendered prompt (the
 * route's skill, then the template's output; not framed, see framing.ts) on stdin; its stdout is
 * the answer, a non-zero exit a failure.
 */
import type { RunRequest, RunResult } from '@webhook-gateway/core';
import { agentSettings } from './agent-settings.js';

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
  return { answer: String(result.stdout ?? ''), accounting: { runner: 'command' } };
}
