#!/usr/bin/env node
/**
 * Fails when a reference points nowhere, so a clone is all a reader needs:
 * - a markdown link between the docs (README.md, docs/, packages/<name>/README.md,
 *   bench/README.md) to a file that does not exist, or to a heading it does not have
 *   (anchors as GitHub makes them, with github-slugger);
 * - a `docs/<file>.md#<heading>` in the source (packages/<name>/src, test/, bench/, scripts/)
 *   that does not resolve the same way: in a comment, or anywhere when it names a heading (a
 *   test's data may name made-up files, never made-up headings);
 * - a section-sign reference to a design document outside the repository.
 *
 * Usage: node scripts/check-doc-refs.mjs [--root DIR]   (exit 1 and one line per broken ref)
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.turbo', 'coverage', 'results']);
const SOURCE_FILE = /\.(ts|mts|js|mjs)$/;
/** A link's target in `[text](target)` or `[text](target "title")`; images too. */
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
/** `docs/<file>.md`, with an optional `#<heading>`, as written in a comment or a string. */
const SOURCE_DOC_REF = /\bdocs\/[\w./-]+\.md(?:#[\w-]+)?/g;
/** A section sign followed by a number, or a design document cited by section. */
const SECTION_REF = new RegExp(['DESIGN\\s*\u00a7', '\u00a7\\s*\\d'].join('|'), 'g');

/** Every file under `dir` (recursively) whose name matches `pattern`. */
function filesUnder(dir, pattern) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(full, pattern));
    else if (pattern.test(entry.name)) found.push(full);
  }
  return found;
}

/** The markdown files whose links are checked. */
function markdownFiles(root) {
  const packages = path.join(root, 'packages');
  const packageReadmes = existsSync(packages)
    ? readdirSync(packages).map((name) => path.join(packages, name, 'README.md'))
    : [];
  return [
    path.join(root, 'README.md'),
    path.join(root, 'bench', 'README.md'),
    ...filesUnder(path.join(root, 'docs'), /\.md$/),
    ...packageReadmes,
  ].filter((file) => existsSync(file));
}

/** The source files whose `docs/…` references are checked. */
function sourceFiles(root) {
  const packages = path.join(root, 'packages');
  const packageSources = existsSync(packages)
    ? readdirSync(packages).flatMap((name) =>
        filesUnder(path.join(packages, name, 'src'), SOURCE_FILE),
      )
    : [];
  return [
    ...packageSources,
    ...filesUnder(path.join(root, 'test'), SOURCE_FILE),
    ...filesUnder(path.join(root, 'bench'), SOURCE_FILE),
    ...filesUnder(path.join(root, 'scripts'), SOURCE_FILE),
  ];
}

/** Lines of a markdown file outside fenced code blocks, with inline code removed. */
function proseLines(text) {
  const lines = [];
  let fence;
  for (const [index, line] of text.split('\n').entries()) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length)
        fence = undefined;
      continue;
    }
    if (opening) {
      fence = opening[1];
      continue;
    }
    lines.push({ number: index + 1, text: line.replace(/(`+)[^`]*?\1/g, '') });
  }
  return lines;
}

const anchorCache = new Map();

/** The anchors GitHub gives a markdown file's headings (duplicates get `-1`, `-2`, …). */
function anchorsOf(file) {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  const slugger = new GithubSlugger();
  anchors = new Set();
  let fence;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length)
        fence = undefined;
      continue;
    }
    if (opening) {
      fence = opening[1];
      continue;
    }
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    // What GitHub slugs is the heading's text: links keep their text, markup goes.
    const text = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    anchors.add(slugger.slug(text));
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Why `target` (a path with an optional `#anchor`, relative to `fromDir`) is broken, if it is. */
function brokenTarget(target, fromDir, ownFile) {
  const hashAt = target.indexOf('#');
  const filePart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const file = filePart === '' ? ownFile : path.resolve(fromDir, filePart);
  if (!existsSync(file)) return `no file ${filePart}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return undefined;
  if (anchorsOf(file).has(anchor.toLowerCase())) return undefined;
  return `no heading #${anchor} in ${path.basename(file)}`;
}

/** Every broken reference under `root`, as `file:line: what`. */
export function brokenRefs(root) {
  const problems = [];
  const where = (file, line) => `${path.relative(root, file)}:${line}`;

  for (const file of markdownFiles(root)) {
    const text = readFileSync(file, 'utf8');
    for (const { number, text: line } of proseLines(text)) {
      for (const [, target] of line.matchAll(MARKDOWN_LINK)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
        const broken = brokenTarget(target, path.dirname(file), file);
        if (broken) problems.push(`${where(file, number)}: ${broken} (${target})`);
      }
    }
    for (const [index, line] of text.split('\n').entries()) {
      if (SECTION_REF.test(line)) problems.push(`${where(file, index + 1)}: ${sectionProblem}`);
      SECTION_REF.lastIndex = 0;
    }
  }

  for (const file of sourceFiles(root)) {
    for (const [index, line] of readFileSync(file, 'utf8').split('\n').entries()) {
      const comment = commentOf(line);
      for (const [target] of line.matchAll(SOURCE_DOC_REF)) {
        if (!target.includes('#') && !comment.includes(target)) continue;
        const broken = brokenTarget(target, root, file);
        if (broken) problems.push(`${where(file, index + 1)}: ${broken} (${target})`);
      }
      if (SECTION_REF.test(line)) problems.push(`${where(file, index + 1)}: ${sectionProblem}`);
      SECTION_REF.lastIndex = 0;
    }
  }
  return problems;
}

/** The part of a source line that is a comment (a line of a block comment, or after `//`). */
function commentOf(line) {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return line;
  const slashes = line.indexOf('//');
  return slashes === -1 ? '' : line.slice(slashes);
}

const sectionProblem =
  'a section-numbered reference to a document outside the repository; point to a heading in docs/';

function main() {
  const rootFlag = process.argv.indexOf('--root');
  const root =
    rootFlag === -1
      ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
      : path.resolve(process.argv[rootFlag + 1] ?? '.');
  const problems = brokenRefs(root);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`${problems.length} broken reference(s): fix the link or the heading it names`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
