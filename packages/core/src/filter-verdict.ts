/**
 * A route's `filters` against one delivery: each clause's verdict, as a tree, in both forms.
 * The receiver asks whether every top-level clause passed; `filters test` prints the tree. Pure
 * but for the clock: the `regex` clauses of one delivery share a time limit.
 */
import {
  isSpecForm,
  FILTER_OPERATORS,
  type FieldSpec,
  type FilterMapValue,
  type FilterOperator,
  type FilterSpec,
  type RouteFilters,
} from './config/filter-schema.js';
import { inFileRelativePath } from './config/filter-schema.js';
import { FILTER_REGEX_TIMEOUT_MS, searchWithin } from './filter-regex-limit.js';
import {
  ABSENT,
  filterText,
  pythonContains,
  pythonEquals,
  pythonSortedJson,
  resolveField,
  type FilterInput,
} from './filter-values.js';
import { isMissing, lookupPath } from './template.js';

/** One clause and whether it passed; a group's clauses are its children. */
export interface ClauseVerdict {
  /** The clause as written, in short: `action equals "opened"`, `any`, `pull_request.draft: not true`. */
  clause: string;
  passed: boolean;
  /** What the field held, for a clause that reads one: `"closed"`, `(missing)`. */
  actual?: string;
  children?: ClauseVerdict[];
  /**
   * A `regex` that did not finish within the time limit, or a group or `not` holding one: it
   * does not pass, whatever else holds (a `not` does not turn it into a match), as in Hermes.
   */
  timedOut?: true;
}

/**
 * A `regex` clause that did not finish within the time limit (stopped, or left no time by one
 * stopped before it): its key under the route and the field it read.
 */
export interface TimedOutFilter {
  /** `filters[0].regex`, `filters.any[1].regex`. */
  key: string;
  field: string;
}

/** Every clause's verdict, whether all passed, and the `regex` clauses that timed out. */
export interface FilterEvaluation {
  clauses: ClauseVerdict[];
  passed: boolean;
  timedOut: TimedOutFilter[];
}

/** The values of an `in_file` list by its path under the home (empty when unreadable). */
export type InFileValues = (relativePath: string) => readonly unknown[];

/** One evaluation's lists, the time its regexes must end by, and what timed out. */
interface Evaluation {
  inFile: InFileValues;
  deadline: number;
  timedOut: TimedOutFilter[];
}

function shown(value: unknown): string {
  if (value === ABSENT || isMissing(value)) return '(missing)';
  return pythonSortedJson(value);
}

function valueMatches(actual: unknown, allowed: unknown): boolean {
  if (actual === allowed) return true;
  // `pull_request.number: "42"` in YAML still matches the number 42, and the reverse.
  const scalar = (v: unknown): boolean =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return scalar(actual) && scalar(allowed) && String(actual) === String(allowed);
}

/**
 * One map-form filter: one of the allowed values, or, for `{ not: … }`, none of them (a missing
 * path passes a negation: a PR without `draft` is not a draft).
 */
function mapVerdict(path: string, expected: FilterMapValue, input: FilterInput): ClauseVerdict {
  const negated = typeof expected === 'object' && expected !== null && !Array.isArray(expected);
  const values = negated ? expected.not : expected;
  const listed = Array.isArray(values) ? values : [values];
  const actual = lookupPath(input.payload, path);
  const matches = !isMissing(actual) && listed.some((value) => valueMatches(actual, value));
  const clause = `${path}: ${negated ? 'not ' : ''}${listed.length === 1 ? shown(listed[0]) : `one of ${shown(listed)}`}`;
  const passed = isMissing(actual) ? negated : negated ? !matches : matches;
  return { clause, passed, actual: shown(actual) };
}

function operatorOf(spec: FieldSpec): FilterOperator {
  return FILTER_OPERATORS.find((operator) => operator in spec) ?? 'equals';
}

/**
 * A regex clause's search within what is left of the evaluation's limit; with nothing left it
 * does not run, and counts as timed out like the one that spent the limit.
 */
function regexPasses(
  source: string,
  value: unknown,
  key: string,
  field: string,
  evaluation: Evaluation,
): boolean | 'timed-out' {
  const left = evaluation.deadline - performance.now();
  const found = left > 0 ? searchWithin(source, filterText(value), left) : 'timed-out';
  if (found !== 'timed-out') return found === 'match';
  evaluation.timedOut.push({ key: `${key}.regex`, field });
  return 'timed-out';
}

/** A field spec's verdict, as Hermes' `filter_matches` decides it. */
function fieldVerdict(
  spec: FieldSpec,
  input: FilterInput,
  key: string,
  evaluation: Evaluation,
): ClauseVerdict {
  const operator = operatorOf(spec);
  const operand: unknown = spec[operator];
  const value = resolveField(spec.field, input);
  const present = value !== ABSENT;
  const written = operator === 'in_file' || operator === 'regex' ? String(operand) : shown(operand);
  const clause = `${spec.field} ${operator} ${written}`;
  let passed: boolean;
  switch (operator) {
    case 'exists':
      passed = present === operand;
      break;
    case 'missing':
      passed = !present;
      break;
    case 'equals':
      passed = present && pythonEquals(value, operand);
      break;
    case 'not_equals':
      passed = !present || !pythonEquals(value, operand);
      break;
    case 'contains':
      passed = pythonContains(value, operand);
      break;
    case 'in':
      passed =
        present && Array.isArray(operand) && operand.some((item) => pythonEquals(value, item));
      break;
    case 'in_file': {
      const relative = typeof operand === 'string' ? inFileRelativePath(operand) : undefined;
      const listed = relative === undefined ? [] : evaluation.inFile(relative);
      passed = present && listed.some((item) => pythonEquals(value, item));
      break;
    }
    case 'regex': {
      const found = present && regexPasses(String(operand), value, key, spec.field, evaluation);
      if (found === 'timed-out')
        return { clause, passed: false, actual: shown(value), timedOut: true };
      passed = found;
      break;
    }
  }
  return { clause, passed, actual: shown(value) };
}

/** A group's verdict: one timed-out clause inside fails it, as Hermes' `None` does. */
function groupVerdict(
  clause: 'all' | 'any' | 'not',
  passed: boolean,
  children: ClauseVerdict[],
): ClauseVerdict {
  return children.some((child) => child.timedOut)
    ? { clause, passed: false, children, timedOut: true }
    : { clause, passed, children };
}

function specVerdict(
  spec: FilterSpec,
  input: FilterInput,
  key: string,
  evaluation: Evaluation,
): ClauseVerdict {
  if ('all' in spec) {
    const children = spec.all.map((item, i) =>
      specVerdict(item, input, `${key}.all[${i}]`, evaluation),
    );
    return groupVerdict(
      'all',
      children.every((child) => child.passed),
      children,
    );
  }
  if ('any' in spec) {
    const children = spec.any.map((item, i) =>
      specVerdict(item, input, `${key}.any[${i}]`, evaluation),
    );
    return groupVerdict(
      'any',
      children.some((child) => child.passed),
      children,
    );
  }
  if ('not' in spec) {
    const child = specVerdict(spec.not, input, `${key}.not`, evaluation);
    return groupVerdict('not', !child.passed, [child]);
  }
  return fieldVerdict(spec, input, key, evaluation);
}

/**
 * Every top-level clause of a route's filters with its verdict (one per map key, one per spec
 * of a list, or the one spec); the delivery passes when all of them pass. The `regex` clauses
 * share `limitMs`: one that runs past what is left is stopped and fails.
 */
export function evaluateFilters(
  filters: RouteFilters,
  input: FilterInput,
  inFile: InFileValues,
  limitMs: number = FILTER_REGEX_TIMEOUT_MS,
): FilterEvaluation {
  let clauses: ClauseVerdict[];
  const evaluation: Evaluation = { inFile, deadline: performance.now() + limitMs, timedOut: [] };
  if (!isSpecForm(filters)) {
    clauses = Object.entries(filters).map(([path, expected]) => mapVerdict(path, expected, input));
  } else if (Array.isArray(filters)) {
    clauses = filters.map((spec, i) => specVerdict(spec, input, `filters[${i}]`, evaluation));
  } else {
    clauses = [specVerdict(filters, input, 'filters', evaluation)];
  }
  return {
    clauses,
    passed: clauses.every((verdict) => verdict.passed),
    timedOut: evaluation.timedOut,
  };
}

/** Every top-level clause of a route's filters with its verdict (see `evaluateFilters`). */
export function explainFilters(
  filters: RouteFilters,
  input: FilterInput,
  inFile: InFileValues,
): ClauseVerdict[] {
  return evaluateFilters(filters, input, inFile).clauses;
}

/** The `in_file` paths (as written) a route's filters read, for loading before a request. */
export function inFilePaths(filters: RouteFilters): string[] {
  if (!isSpecForm(filters)) return [];
  const found: string[] = [];
  const walk = (spec: FilterSpec): void => {
    if ('all' in spec) spec.all.forEach(walk);
    else if ('any' in spec) spec.any.forEach(walk);
    else if ('not' in spec) walk(spec.not);
    else if (typeof spec.in_file === 'string') {
      const relative = inFileRelativePath(spec.in_file);
      if (relative !== undefined) found.push(relative);
    }
  };
  (Array.isArray(filters) ? filters : [filters]).forEach(walk);
  return found;
}
