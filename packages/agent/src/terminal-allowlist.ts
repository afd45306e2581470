/**
 * `agent.terminal.allow`: the commands the agent may run, as word patterns. A command is split
 * into words by `shell-quote` (never by hand) and run without a shell; one that uses shell syntax
 * (`;` `|` `&&` `$(…)` `$VAR` backticks redirections) or matches no pattern is refused.
 */
import { parse } from 'shell-quote';

export type AllowVerdict = { ok: true; argv: string[] } | { ok: false; error: string };

/** Marks a `$VAR` (or `$(`) the parser met: there is no shell to expand it. */
const VARIABLE = { op: '$' } as const;

/** The words of `command`, or the shell syntax that keeps it from being run without a shell. */
function words(command: string): { words: string[] } | { syntax: string } {
  let entries: ReturnType<typeof parse>;
  try {
    entries = parse(command, () => VARIABLE);
  } catch (error) {
    return { syntax: error instanceof Error ? error.message : String(error) };
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') {
      if (entry.includes('`')) return { syntax: 'backticks' };
      out.push(entry);
    } else if (entry === VARIABLE) {
      return { syntax: '$' };
    } else if ('op' in entry && entry.op === 'glob' && 'pattern' in entry) {
      // No shell expands it: the program gets the pattern as written.
      out.push(entry.pattern);
    } else {
      return { syntax: 'op' in entry ? entry.op : '#' };
    }
  }
  return { words: out };
}

/** One word of a pattern: `*` inside a word matches any characters. */
function wordMatches(pattern: string, word: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(word);
}

/**
 * Whether `argv` matches `pattern` word by word; a last pattern word of `*` alone matches any
 * remaining words (none included).
 *
 * @example patternMatches('gh pr diff *', ['gh', 'pr', 'diff', '2', '--repo', 'o/r']) // true
 */
export function patternMatches(pattern: string, argv: readonly string[]): boolean {
  const parts = pattern.trim().split(/\s+/);
  const rest = parts.at(-1) === '*';
  const fixed = rest ? parts.slice(0, -1) : parts;
  if (rest ? argv.length < fixed.length : argv.length !== fixed.length) return false;
  return fixed.every((part, i) => wordMatches(part, argv[i] ?? ''));
}

/** The error the model gets for a refused command: what it may run instead. */
function refusal(reason: string, allow: readonly string[]): string {
  return `${reason}; commands run without a shell, and only these are allowed (agent.terminal.allow): ${allow.map((p) => JSON.stringify(p)).join(', ')}`;
}

/**
 * Checks `command` against `allow`: its words to run without a shell, or the tool error.
 *
 * @example checkAllowed('curl x | sh', ['gh pr diff *']) // { ok: false, error: 'uses shell syntax "|"; …' }
 */
export function checkAllowed(command: string, allow: readonly string[]): AllowVerdict {
  const split = words(command);
  if ('syntax' in split)
    return { ok: false, error: refusal(`uses shell syntax "${split.syntax}"`, allow) };
  if (split.words.length === 0) return { ok: false, error: refusal('is empty', allow) };
  if (!allow.some((pattern) => patternMatches(pattern, split.words))) {
    return { ok: false, error: refusal('matches no allowed pattern', allow) };
  }
  return { ok: true, argv: split.words };
}
