/**
 * A route's `filters` in its two forms, checked at start with the key path of each problem:
 * - the map form, `{ <payload path>: value | [values] | { not: … } }`;
 * - Hermes' spec form: a list of specs (all must match) or one spec, where a spec is
 *   `{ field, <one operator> }` or a group `{ all: [...] }`, `{ any: [...] }`, `{ not: spec }`.
 */
import { z } from 'zod';
import { compileFilterRegex } from '../filter-regex.js';

const scalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** What a map filter accepts: a value, a list of values, or `{ not: … }` for everything else. */
const allowedValuesSchema = z.union([scalarSchema, z.array(scalarSchema)]);
const mapValueSchema = z.union([allowedValuesSchema, z.strictObject({ not: allowedValuesSchema })]);
const mapFormSchema = z.record(z.string().min(1), mapValueSchema);

export type FilterMapValue = z.infer<typeof mapValueSchema>;
export type FilterMap = Record<string, FilterMapValue>;

/** The operators of a spec, as Hermes names them; a spec has exactly one. */
export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'in',
  'in_file',
  'regex',
  'exists',
  'missing',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const GROUP_KEYS = ['all', 'any', 'not'] as const;

/** One clause of the spec form. */
export type FilterSpec =
  { all: FilterSpec[] } | { any: FilterSpec[] } | { not: FilterSpec } | FieldSpec;

/** `{ field, <operator>: operand }`: the operand's type depends on the operator. */
export interface FieldSpec {
  field: string;
  equals?: unknown;
  not_equals?: unknown;
  contains?: unknown;
  in?: unknown[];
  in_file?: string;
  regex?: string;
  exists?: boolean;
  missing?: true;
}

/** A route's filters as written: the map form, one spec, or a list of specs. */
export type RouteFilters = FilterMap | FilterSpec | FilterSpec[];

/** The words that make an object a spec rather than a map of payload paths. */
const SPEC_KEYS: ReadonlySet<string> = new Set(['field', ...GROUP_KEYS, ...FILTER_OPERATORS]);

/** True when `filters` is written in the spec form (a list, or an object with a spec's keys). */
export function isSpecForm(filters: RouteFilters): filters is FilterSpec | FilterSpec[] {
  return Array.isArray(filters) || Object.keys(filters).some((key) => SPEC_KEYS.has(key));
}

type Path = (string | number)[];
type Report = (path: Path, message: string) => void;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An `in_file` path: relative to the home, or `~/.hermes/…` (Hermes' home, read as this one).
 * Absolute paths and `..` would reach outside the home.
 */
export function inFileRelativePath(value: string): string | undefined {
  const trimmed = value.trim().replace(/^~\/\.hermes\//, '');
  if (trimmed === '' || trimmed.startsWith('/') || trimmed.startsWith('~')) return undefined;
  if (trimmed.split(/[/\\]/).includes('..')) return undefined;
  return trimmed;
}

function checkOperand(operator: FilterOperator, operand: unknown, path: Path, report: Report) {
  const at = [...path, operator];
  switch (operator) {
    case 'in':
      if (!Array.isArray(operand)) report(at, 'expected a list of values');
      return;
    case 'in_file':
      if (typeof operand !== 'string' || inFileRelativePath(operand) === undefined)
        report(at, 'expected a file under the home, as "allowlists/users.txt"');
      return;
    case 'regex':
      if (typeof operand !== 'string') {
        report(at, 'expected a regular expression as a string');
        return;
      }
      try {
        compileFilterRegex(operand);
      } catch (error) {
        report(at, `the regular expression does not compile: ${(error as Error).message}`);
      }
      return;
    case 'exists':
      if (typeof operand !== 'boolean') report(at, 'expected true or false');
      return;
    case 'missing':
      if (operand !== true)
        report(at, 'expected true (for a value that must be there, use exists: true)');
      return;
    default:
      return;
  }
}

function checkSpec(spec: unknown, path: Path, report: Report): void {
  if (!isPlainObject(spec)) {
    report(path, 'expected a filter spec: { field, <operator> }, or { all | any | not }');
    return;
  }
  const keys = Object.keys(spec);
  const groups = GROUP_KEYS.filter((key) => key in spec);
  if (groups.length > 0) {
    if (keys.length > 1) {
      report(path, `a group has one key (${groups.join(', ')}); found ${keys.join(', ')}`);
      return;
    }
    const group = groups[0] as (typeof GROUP_KEYS)[number];
    const inner = spec[group];
    if (group === 'not') checkSpec(inner, [...path, 'not'], report);
    else if (!Array.isArray(inner)) report([...path, group], 'expected a list of specs');
    else inner.forEach((item, index) => checkSpec(item, [...path, group, index], report));
    return;
  }
  for (const key of keys) {
    if (key !== 'field' && !(FILTER_OPERATORS as readonly string[]).includes(key))
      report(
        [...path, key],
        `unknown key; a spec has field and one of ${FILTER_OPERATORS.join(', ')}`,
      );
  }
  if (typeof spec.field !== 'string' || spec.field.trim() === '')
    report([...path, 'field'], 'expected a field: a dotted path, as "pull_request.draft"');
  const operators = FILTER_OPERATORS.filter((operator) => operator in spec);
  if (operators.length === 0)
    report(path, `the spec has no operator; add one of ${FILTER_OPERATORS.join(', ')}`);
  else if (operators.length > 1)
    report(path, `the spec has ${operators.length} operators (${operators.join(', ')}); keep one`);
  else checkOperand(operators[0] as FilterOperator, spec[operators[0] as string], path, report);
}

/** The `filters` key of a route: either form, each problem reported at its key path. */
export const routeFiltersSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const report: Report = (path, message) => ctx.addIssue({ code: 'custom', path, message });
    if (Array.isArray(value)) {
      value.forEach((spec, index) => checkSpec(spec, [index], report));
      return;
    }
    if (!isPlainObject(value)) {
      report([], 'expected a map of payload paths, a filter spec, or a list of specs');
      return;
    }
    if (isSpecForm(value as RouteFilters)) {
      checkSpec(value, [], report);
      return;
    }
    const parsed = mapFormSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) report(issue.path as Path, issue.message);
    }
  })
  .transform((value) => value as RouteFilters)
  .default({});
