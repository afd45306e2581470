/**
 * Options that make an allowlisted `git`, `gh` or `glab` write files, run programs, open a
 * browser, send requests other than reads or talk to another host: refused whatever the pattern
 * says, unless the pattern that matched names the option literally.
 */

/** Long options git and gh accept abbreviated (`--out` for `--output`): a prefix counts. */
const GIT_LONG = [
  '--output',
  '--ext-diff',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--exec-path',
  '--open-files-in-pager',
  '--config-env',
];
/** Short options of git; in a cluster (`-po`) each letter counts. */
const GIT_SHORT = ['o', 'c', 'O'];
const FORGE_CLI_LONG = ['--web', '--input', '--hostname'];
const FORGE_CLI_SHORT = ['w'];

/** A forbidden option found in `argv`, as the word that carried it. */
export interface ForbiddenOption {
  option: string;
  word: string;
}

function longMatch(word: string, options: readonly string[]): string | undefined {
  if (!word.startsWith('--') || word === '--') return undefined;
  const name = word.split('=', 1)[0] ?? word;
  return options.find((option) => option === name || (name.length > 3 && option.startsWith(name)));
}

function shortMatch(word: string, letters: readonly string[]): string | undefined {
  const cluster = /^-([A-Za-z][A-Za-z0-9]*)/.exec(word)?.[1];
  if (cluster === undefined) return undefined;
  // The first letter is an option for sure; after it, letters may be a value (`-Sfoo`), so only a
  // short run of letters alone (`-po`) is read as bundled flags.
  const flags = /^[A-Za-z]{1,3}$/.test(cluster) ? cluster : cluster.slice(0, 1);
  const letter = letters.find((candidate) => flags.includes(candidate));
  return letter === undefined ? undefined : `-${letter}`;
}

/**
 * What makes a `gh api` / `glab api` call other than a read: `-X`/`--method` other than GET, or,
 * without one, fields (both CLIs then POST them). `undefined` for a GET.
 */
function apiMethod(args: readonly string[]): ForbiddenOption | undefined {
  let fields: ForbiddenOption | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    const option = /^(-X|--method)(?:=?(.*))$/.exec(word);
    if (option) {
      const method = option[2] !== '' ? option[2] : args[i + 1];
      if ((method ?? '').toUpperCase() === 'GET') return undefined;
      return {
        option: option[1] ?? '-X',
        word: option[2] !== '' ? word : `${word} ${method ?? ''}`,
      };
    }
    const field = /^(-f|-F|--field|--raw-field)(=?.*)$/.exec(word);
    if (field) {
      const shown = field[2] !== '' ? word : `${word} ${args[i + 1] ?? ''}`;
      fields ??= { option: field[1] ?? '-f', word: `${shown} (sent as a POST)` };
    }
  }
  return fields;
}

/**
 * The forbidden options `argv` carries (empty when none).
 *
 * @example forbiddenOptions(['git', 'log', '--output=/tmp/x']) // [{ option: '--output', word: '--output=/tmp/x' }]
 */
export function forbiddenOptions(argv: readonly string[]): ForbiddenOption[] {
  const program = argv[0];
  const args = argv.slice(1);
  const found: ForbiddenOption[] = [];
  const scan = (long: readonly string[], short: readonly string[]) => {
    for (const word of args) {
      if (word === '--') break;
      const option = longMatch(word, long) ?? shortMatch(word, short);
      if (option !== undefined) found.push({ option, word });
    }
  };
  if (program === 'git') scan(GIT_LONG, GIT_SHORT);
  if (program === 'gh' || program === 'glab') {
    scan(FORGE_CLI_LONG, FORGE_CLI_SHORT);
    const write = args[0] === 'api' ? apiMethod(args) : undefined;
    if (write) found.push(write);
  }
  return found;
}

/** True when the pattern's words name `option` literally (`--output`, `--output=*`, `-X`, `-XPOST`). */
export function patternNamesOption(pattern: string, option: string): boolean {
  return pattern
    .trim()
    .split(/\s+/)
    .some(
      (word) =>
        word === option ||
        word.startsWith(`${option}=`) ||
        (option.length === 2 && word.startsWith(option)),
    );
}
