/**
 * A route's `filters` against one delivery (pure): each clause's verdict, as a tree, in both
 * forms. The receiver asks whether every top-level clause passed; `filters test` prints the tree.
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
import { compileFilterRegex } from './filter-regex.js';
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
}

/** The values of an `in_file` list by its path under the home (empty when unreadable). */
export type InFileValues = (relativePath: string) => readonly unknown[];

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

/** A field spec's verdict, as Hermes' `filter_matches` decides it. */
function fieldVerdict(spec: FieldSpec, input: FilterInput, inFile: InFileValues): ClauseVerdict {
  const operator = operatorOf(spec);
  const operand: unknown = spec[operator];
  const value = resolveField(spec.field, input);
  const present = value !== ABSENT;
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
      const listed = relative === undefined ? [] : inFile(relative);
      passed = present && listed.some((item) => pythonEquals(value, item));
      break;
    }
    case 'regex':
      passed = present && compileFilterRegex(String(operand)).test(filterText(value));
      break;
  }
  const written = operator === 'in_file' || operator === 'regex' ? String(operand) : shown(operand);
  return { clause: `${spec.field} ${operator} ${written}`, passed, actual: shown(value) };
}

function specVerdict(spec: FilterSpec, input: FilterInput, inFile: InFileValues): ClauseVerdict {
  if ('all' in spec) {
    const children = spec.all.map((item) => specVerdict(item, input, inFile));
    return { clause: 'all', passed: children.every((child) => child.passed), children };
  }
  if ('any' in spec) {
    const children = spec.any.map((item) => specVerdict(item, input, inFile));
    return { clause: 'any', passed: children.some((child) => child.passed), children };
  }
  if ('not' in spec) {
    const child = specVerdict(spec.not, input, inFile);
    return { clause: 'not', passed: !child.passed, children: [child] };
  }
  return fieldVerdict(spec, input, inFile);
}

/**
 * Every top-level clause of a route's filters with its verdict: one per map key, one per spec
 * of a list, or the one spec. A delivery passes when all of them pass.
 */
export function explainFilters(
  filters: RouteFilters,
  input: FilterInput,
  inFile: InFileValues,
): ClauseVerdict[] {
  if (!isSpecForm(filters)) {
    return Object.entries(filters).map(([path, expected]) => mapVerdict(path, expected, input));
  }
  const specs = Array.isArray(filters) ? filters : [filters];
  return specs.map((spec) => specVerdict(spec, input, inFile));
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
