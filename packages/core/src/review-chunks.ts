/**
 * A chunked review's answers as one: the target gets a single answer whatever the number of
 * runner calls. Each chunk's answer goes under a heading naming its files; line comments are put
 * together; a chunk that answered `[SILENT]` adds nothing, and only all of them silent is silent.
 */
import { isSilentAnswer, SILENT_ANSWER, type ReviewConclusion } from './delivery.js';
import type { ReviewChunk, RunResult } from './hooks.js';

/** Between the chunks' prompts in the journal's `prompt`. */
export const CHUNK_PROMPT_SEPARATOR = '\n\n---------- next chunk ----------\n\n';

/** Files named in a chunk's heading before the rest are counted. */
const NAMED_FILES = 5;

function heading(chunk: ReviewChunk, index: number, of: number): string {
  const named = chunk.files.slice(0, NAMED_FILES).map((file) => `\`${file}\``);
  const more = chunk.files.length - named.length;
  return `### Part ${index + 1} of ${of}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * One answer from the chunks' (in the chunks' order; accounting is summed by the attempt).
 *
 * @example mergeChunkAnswers(context.chunks, results).answer
 */
export function mergeChunkAnswers(
  chunks: readonly ReviewChunk[],
  results: readonly RunResult[],
): RunResult {
  const parts: string[] = [];
  results.forEach((result, index) => {
    const chunk = chunks[index];
    if (!chunk || isSilentAnswer(result.answer)) return;
    parts.push(`${heading(chunk, index, chunks.length)}\n\n${result.answer.trim()}`);
  });
  const lineComments = results.flatMap((result) => result.lineComments ?? []);
  const conclusion = worstConclusion(results.map((result) => result.conclusion));
  return {
    answer: parts.length > 0 ? parts.join('\n\n') : SILENT_ANSWER,
    ...(lineComments.length > 0 ? { lineComments } : {}),
    ...(conclusion ? { conclusion } : {}),
  };
}

const SEVERITY = { success: 0, neutral: 1, failure: 2 } as const;

/** The chunks' verdict: the most severe one given (one failing part fails the review). */
function worstConclusion(
  conclusions: readonly (ReviewConclusion | undefined)[],
): ReviewConclusion | undefined {
  let worst: ReviewConclusion | undefined;
  for (const conclusion of conclusions) {
    if (conclusion && (!worst || SEVERITY[conclusion.value] > SEVERITY[worst.value]))
      worst = conclusion;
  }
  return worst;
}
