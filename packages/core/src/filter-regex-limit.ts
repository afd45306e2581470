/**
 * A filter's regex search under a time limit. A JavaScript RegExp cannot be interrupted from
 * the thread it runs on, but a `node:vm` script's `timeout` stops the isolate, the regex
 * included, and throws: so each search runs as a tiny script in a context of its own. Hermes
 * gets the same limit by searching in a child process it kills after 0.1 s.
 */
import vm from 'node:vm';
import { compileFilterRegex } from './filter-regex.js';

/**
 * How long the regex filters of one delivery may search, together: Hermes'
 * `FILTER_REGEX_TIMEOUT_SECONDS` (0.1 s), a constant there too.
 */
export const FILTER_REGEX_TIMEOUT_MS = 100;

/** What a search found, or that it was stopped at its limit. */
export type RegexSearch = 'match' | 'no-match' | 'timed-out';

/** A vm context's globals: the regex, and the text it searches next. */
interface SearchContext extends vm.Context {
  re: RegExp;
  text: string;
}

// One script for every search; one context per regex, made on its first search and reused
// (about 0.4 ms and 0.15 MB each, against ~80 µs a search for the timeout's watchdog).
const SEARCH = new vm.Script('re.test(text)', { filename: 'filter-regex-search' });
const contexts = new Map<string, SearchContext>();

function isTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
  );
}

/**
 * Searches `text` with a filter's regex (as `compileFilterRegex` reads it), stopped after
 * `limitMs` (at least 1 ms): a catastrophic pattern costs the caller that long, never more.
 *
 * @example searchWithin('(a+)+$', 'a'.repeat(50_000) + '!', 100) // 'timed-out'
 */
export function searchWithin(source: string, text: string, limitMs: number): RegexSearch {
  let context = contexts.get(source);
  if (!context) {
    context = { re: compileFilterRegex(source), text: '' };
    vm.createContext(context); // contextifies this very object
    contexts.set(source, context);
  }
  context.text = text;
  try {
    const found: unknown = SEARCH.runInContext(context, {
      timeout: Math.max(1, Math.ceil(limitMs)),
    });
    return found === true ? 'match' : 'no-match';
  } catch (error) {
    if (isTimeout(error)) return 'timed-out';
    throw error;
  } finally {
    // The payload's text is not kept alive by the cached context.
    context.text = '';
  }
}
