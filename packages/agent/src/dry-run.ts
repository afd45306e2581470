/** The `dry-run` runner: the answer is the rendered prompt. The default when no agent is set. */
import type { RunRequest, RunResult } from '@webhook-gateway/core';

export async function runDryRun(request: RunRequest): Promise<RunResult> {
  return { answer: request.prompt, accounting: { runner: 'dry-run' } };
}
