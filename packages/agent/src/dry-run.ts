/**
 * The `dry-run` runner: the answer is the rendered prompt (the template's output, after the
 * route's skill; not framed, see framing.ts). The default when no agent is set.
 */
import type { RunRequest, RunResult } from '@webhook-gateway/core';

export async function runDryRun(request: RunRequest): Promise<RunResult> {
  return { answer: request.prompt, accounting: { runner: 'dry-run' } };
}
