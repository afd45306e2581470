/**
 * `agent.terminal.allow`: the commands the agent may run, as word patterns. A command is split
 * into words by `shell-quote` (never by hand) and run without a shell; one that spans lines, uses
 * shell syntax (`;` `|` `&&` `$(…)` `$VAR` backticks redirections), matches no pattern, carries an
 * option that writes files or runs programs, or (`gh`, `glab`) names another repository than the
 * delivery's is refused.
 */
import { parse } from 'shell-quote';
import { forbiddenOptions, patternNamesOption } from './terminal-options.js';
import { repositoryRefusal } from './terminal-repository.js';

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

/** The delivery a command runs for: which repository `gh`/`glab` may name. */
export interface AllowScope {
  /** `owner/repo` (or the altforge's project path); `undefined` when the delivery names none. */
  repository: string | undefined;
  /** `agent.terminal.allow_other_repos`: any repository may be named. */
  allowOtherRepos: boolean;
}

/**
 * Checks `command` against `allow`: its words to run without a shell, or the tool error.
 *
 * @example checkAllowed('curl x | sh', ['gh pr diff *'], { repository: 'o/r', allowOtherRepos: false }) // { ok: false, error: 'uses shell syntax "|"; …' }
 */
export function checkAllowed(
  command: string,
  allow: readonly string[],
  scope: AllowScope,
): AllowVerdict {
  // shell-quote reads a newline as a space: `gh pr diff 1\ntouch x` would run gh with `touch x`.
  if (/[\n\r]/.test(command)) {
    return { ok: false, error: refusal('spans lines (a newline or carriage return)', allow) };
  }
  const split = words(command);
  if ('syntax' in split)
    return { ok: false, error: refusal(`uses shell syntax "${split.syntax}"`, allow) };
  if (split.words.length === 0) return { ok: false, error: refusal('is empty', allow) };
  const matching = allow.filter((pattern) => patternMatches(pattern, split.words));
  if (matching.length === 0) {
    return { ok: false, error: refusal('matches no allowed pattern', allow) };
  }
  const forbidden = forbiddenOptions(split.words).filter(
    ({ option }) => !matching.some((pattern) => patternNamesOption(pattern, option)),
  );
  if (forbidden.length > 0) {
    const list = forbidden.map(({ word }) => JSON.stringify(word)).join(', ');
    return {
      ok: false,
      error: refusal(
        `uses ${list}, an option that writes files, runs programs or sends more than a read (allowed only where a pattern names it)`,
        allow,
      ),
    };
  }
  if (!scope.allowOtherRepos) {
    const reason = repositoryRefusal(split.words, scope.repository);
    if (reason !== undefined) {
      return {
        ok: false,
        error: refusal(`${reason} (agent.terminal.allow_other_repos lifts this)`, allow),
      };
    }
  }
  return { ok: true, argv: split.words };
}
