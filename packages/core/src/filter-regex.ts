/**
 * A filter's `regex`, written for Hermes (Python's `re`), as a JavaScript RegExp: the Python
 * spellings configs use are translated, and anything else is read as JavaScript reads it.
 */

/** Python's leading global flags (`(?i)`, `(?ms)`) and the RegExp flags they become. */
const GLOBAL_FLAGS = /^\(\?([aimsux]+)\)/;

const compiled = new Map<string, RegExp>();

/**
 * Compiles a filter's regular expression once (cached by its source); throws a SyntaxError
 * that says why when it does not compile.
 *
 * @example compileFilterRegex('(?i)^release/(?P<version>.+)$').test('Release/1.2') // true
 */
export function compileFilterRegex(source: string): RegExp {
  const cached = compiled.get(source);
  if (cached) return cached;
  let body = source;
  let flags = '';
  const leading = GLOBAL_FLAGS.exec(body);
  if (leading) {
    body = body.slice(leading[0].length);
    for (const flag of leading[1] ?? '') {
      if (flag === 'i' || flag === 'm' || flag === 's') flags += flags.includes(flag) ? '' : flag;
      else if (flag === 'x') throw new SyntaxError('the verbose flag (?x) is not supported');
    }
  }
  const regex = new RegExp(translatePython(body), flags);
  compiled.set(source, regex);
  return regex;
}

/** `(?P<name>…)` → `(?<name>…)`, `(?P=name)` → `\k<name>`, `\A` and `\Z` → start and end of text. */
function translatePython(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'A') out += '(?<![\\s\\S])';
      else if (next === 'Z') out += '(?![\\s\\S])';
      else out += char + next;
      i++;
      continue;
    }
    if (source.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    const backReference = /^\(\?P=(\w+)\)/.exec(source.slice(i));
    if (backReference) {
      out += `\\k<${backReference[1]}>`;
      i += backReference[0].length - 1;
      continue;
    }
    out += char;
  }
  return out;
}
