/**
 * A run stopped by one of its limits (`agent.max_tokens_per_delivery`, `agent.max_turns`,
 * `agent.timeout_s`), and the notice a partial review carries (`agent.on_limit: partial`): which
 * limit was reached and how far the review got, as far as the gateway knows it.
 */

/** Which limit stopped a run. */
export type RunLimit = 'tokens' | 'turns' | 'timeout';

const RUN_LIMITS: readonly RunLimit[] = ['tokens', 'turns', 'timeout'];

/** The error of a run a limit stopped: `limit` says which, `cap` its configured value. */
export interface RunLimitError extends Error {
  limit: RunLimit;
  cap: number;
  retryable?: boolean;
}

/**
 * The error a runner (or core, for the timeout) throws when a limit stops the run. With
 * `agent.on_limit: partial`, core delivers what the run reported producing instead of failing.
 *
 * @example throw runLimitError('turns', 20, 'agent stopped after 20 turns without a final answer (agent.max_turns)')
 */
export function runLimitError(
  limit: RunLimit,
  cap: number,
  message: string,
  options: { retryable?: boolean } = {},
): RunLimitError {
  return Object.assign(new Error(message), {
    limit,
    cap,
    ...(options.retryable !== undefined ? { retryable: options.retryable } : {}),
  });
}

/** Whether `error` is a run limit's (by shape: a runner may bundle its own copy of core). */
export function isRunLimitError(error: unknown): error is RunLimitError {
  if (!(error instanceof Error)) return false;
  const { limit, cap } = error as Partial<RunLimitError>;
  return RUN_LIMITS.includes(limit as RunLimit) && typeof cap === 'number';
}

/** How far a stopped review got: the parts of a chunked review done, else the model turns. */
export interface ReviewProgress {
  /** Chunks whose run ended, of how many, and the files they held, of how many. */
  chunks?: { done: number; of: number; filesDone: number; filesOf: number };
  /** Model turns of the stopped run, when its runner counts them. */
  turns?: number;
}

const count = (n: number): string => n.toLocaleString('en-US');

function reached(error: RunLimitError): string {
  switch (error.limit) {
    case 'tokens':
      return `token budget of ${count(error.cap)} reached (agent.max_tokens_per_delivery)`;
    case 'turns':
      return `turn cap of ${count(error.cap)} reached (agent.max_turns)`;
    case 'timeout':
      return `time limit of ${count(error.cap)} s reached (agent.timeout_s)`;
  }
}

function after(progress: ReviewProgress): string {
  const { chunks, turns } = progress;
  if (chunks) {
    const files = `${chunks.filesDone} of ${chunks.filesOf} file${chunks.filesOf === 1 ? '' : 's'}`;
    return ` after ${chunks.done} of ${chunks.of} parts of the diff (${files})`;
  }
  if (turns !== undefined && turns > 0)
    return ` after ${turns} model turn${turns === 1 ? '' : 's'}`;
  return '';
}

/**
 * The line a partial review starts with.
 *
 * @example runLimitNotice(runLimitError('tokens', 200000, '…'), { chunks: { done: 2, of: 5, filesDone: 12, filesOf: 30 } })
 * // '> **Review incomplete:** token budget of 200,000 reached (agent.max_tokens_per_delivery) after 2 of 5 parts of the diff (12 of 30 files). What follows is what the agent produced before it was stopped.'
 */
export function runLimitNotice(error: RunLimitError, progress: ReviewProgress): string {
  return (
    `> **Review incomplete:** ${reached(error)}${after(progress)}. ` +
    'What follows is what the agent produced before it was stopped.'
  );
}
