/**
 * Token counts with a real tokenizer (`gpt-tokenizer`'s o200k_base, the GPT-4o family's), not
 * characters ÷ 4: budgets and the benchmark count what a model is billed for.
 */
import { countTokens as countO200k, isWithinTokenLimit } from 'gpt-tokenizer';

/** The tokens of `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : countO200k(text);
}

/**
 * The tokens of `text` when they are at most `limit`, else undefined. Stops counting at the
 * limit, so a huge file costs no more than the budget it cannot fit.
 */
export function tokensWithin(text: string, limit: number): number | undefined {
  if (text === '') return 0;
  const within = isWithinTokenLimit(text, limit);
  return within === false ? undefined : within;
}
