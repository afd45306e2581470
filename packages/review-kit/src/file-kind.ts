/**
 * What kind of file a diff touches, for pruning: machine-made files (lockfiles, minified code,
 * source maps, vendored folders, files marked generated) and binaries are never worth a
 * reviewer's tokens; tests and docs are worth fewer than source.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import type { DiffFile } from './diff-files.js';

export type FileKind =
  | 'lockfile'
  | 'minified'
  | 'source-map'
  | 'vendored'
  | 'generated'
  | 'binary'
  | 'test'
  | 'docs'
  | 'source';

const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'Cargo.lock',
  'Gemfile.lock',
  'composer.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'go.sum',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'Package.resolved',
  'flake.lock',
  'packages.lock.json',
  'gradle.lockfile',
]);

const VENDORED_FOLDERS = new Set([
  'vendor',
  'node_modules',
  'third_party',
  'third-party',
  'bower_components',
  'Pods',
]);

const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e']);
const TEST_NAME = /(\.|_)(test|spec)\.[^.]+$|^test_.+\.py$|_test\.go$/;
const DOC_EXTENSIONS = new Set(['.md', '.mdx', '.rst', '.adoc', '.txt']);
const DOC_FOLDERS = new Set(['docs', 'doc', 'documentation']);

/** What tools write at the top of a file they made (checked in the first lines a diff adds). */
const GENERATED_MARKER =
  /@generated|\bDO NOT EDIT\b|\bCode generated\b|\bauto-?generated\b|\bThis file (is|was) (automatically )?generated\b/i;

/** The paths `.gitattributes` marks `linguist-generated` and `linguist-vendored`, as matchers. */
export interface MarkedPaths {
  generated: (file: string) => boolean;
  vendored: (file: string) => boolean;
}

/** A `.gitattributes` pattern as a glob: no slash matches the name in any folder (git's rule). */
function globOf(pattern: string): string {
  if (pattern.startsWith('/')) return pattern.slice(1);
  const body = pattern.endsWith('/') ? `${pattern}**` : pattern;
  return body.includes('/') ? body : `**/${body}`;
}

/** The attribute's value on a `.gitattributes` line: set, unset (`-attr`, `attr=false`) or absent. */
function attributeValue(attributes: readonly string[], name: string): boolean | undefined {
  let value: boolean | undefined;
  for (const attribute of attributes) {
    if (attribute === name || attribute === `${name}=true`) value = true;
    else if (attribute === `-${name}` || attribute === `${name}=false` || attribute === `!${name}`)
      value = false;
  }
  return value;
}

/**
 * The paths a repository's `.gitattributes` marks generated or vendored (later lines win, as in
 * git).
 *
 * @example markedPaths('dist/** linguist-generated\n').generated('dist/app.js') // true
 */
export function markedPaths(gitattributes: string | undefined): MarkedPaths {
  const rules: { match: (file: string) => boolean; generated?: boolean; vendored?: boolean }[] = [];
  for (const raw of (gitattributes ?? '').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern, ...attributes] = line.split(/\s+/);
    if (!pattern) continue;
    const generated = attributeValue(attributes, 'linguist-generated');
    const vendored = attributeValue(attributes, 'linguist-vendored');
    if (generated === undefined && vendored === undefined) continue;
    const match = picomatch(globOf(pattern), { dot: true });
    rules.push({
      match,
      ...(generated === undefined ? {} : { generated }),
      ...(vendored === undefined ? {} : { vendored }),
    });
  }
  const lastSaid = (file: string, key: 'generated' | 'vendored'): boolean => {
    let value = false;
    for (const rule of rules) if (rule[key] !== undefined && rule.match(file)) value = rule[key];
    return value;
  };
  return {
    generated: (file) => lastSaid(file, 'generated'),
    vendored: (file) => lastSaid(file, 'vendored'),
  };
}

/** True when the first lines the diff adds carry a generator's mark. */
function hasGeneratedMarker(file: DiffFile): boolean {
  const first = file.hunks[0];
  if (!first) return false;
  const added = first.lines.filter((line) => line.startsWith('+')).slice(0, 5);
  return first.header.startsWith('@@ -0,0 ') || first.header.startsWith('@@ -1,')
    ? added.some((line) => GENERATED_MARKER.test(line))
    : false;
}

/**
 * The kind of a changed file, the first that applies in the order of `FileKind`.
 *
 * @example fileKind(file, markedPaths(gitattributes))
 */
export function fileKind(file: DiffFile, marked: MarkedPaths = markedPaths(undefined)): FileKind {
  const name = path.posix.basename(file.path);
  const folders = path.posix.dirname(file.path).split('/');
  if (LOCKFILES.has(name)) return 'lockfile';
  if (/\.min\.(js|mjs|cjs|css)$/.test(name)) return 'minified';
  if (name.endsWith('.map')) return 'source-map';
  if (folders.some((folder) => VENDORED_FOLDERS.has(folder)) || marked.vendored(file.path))
    return 'vendored';
  if (marked.generated(file.path) || hasGeneratedMarker(file)) return 'generated';
  if (file.binary) return 'binary';
  if (folders.some((folder) => TEST_FOLDERS.has(folder)) || TEST_NAME.test(name)) return 'test';
  if (
    DOC_EXTENSIONS.has(path.posix.extname(name)) ||
    folders.some((folder) => DOC_FOLDERS.has(folder))
  )
    return 'docs';
  return 'source';
}
