/**
 * A unified diff (git's format, as `gh pr diff`, GitHub's `.diff` media type and `glab` give it)
 * cut into files and each file into hunks. The cut is at the header lines only, so every byte of
 * a file's section stays as the forge sent it and the pruned diff is still a diff `git apply`
 * reads.
 */

export interface DiffHunk {
  /** The `@@ -a,b +c,d @@` line. */
  header: string;
  /** The lines after the header, each with its `+`, `-`, ` ` or `\` prefix. */
  lines: string[];
  additions: number;
  deletions: number;
}

export interface DiffFile {
  /** The path after the change (before it, for a deleted file). */
  path: string;
  /** The path before the change, when it was renamed or copied. */
  oldPath?: string;
  /** The lines before the first hunk: `diff --git`, `index`, `---`, `+++`, mode and rename lines. */
  header: string[];
  hunks: DiffHunk[];
  /** git wrote "Binary files … differ" (or a binary patch) instead of hunks. */
  binary: boolean;
  /** The file was added (`new file mode`, or `--- /dev/null`). */
  added: boolean;
  /** The file was deleted (`deleted file mode`, or `+++ /dev/null`). */
  deleted: boolean;
  additions: number;
  deletions: number;
}

const FILE_START = 'diff --git ';
const HUNK_START = '@@';

/** `a/x` → `x`; quoted git paths (`"a/sp ace"`) lose their quotes. */
function stripPrefix(raw: string): string {
  const unquoted = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  return unquoted.replace(/^[ab]\//, '');
}

/** The two paths of `diff --git a/x b/y` (which may hold spaces: split where ` b/` is). */
function pathsOfStart(line: string): { from: string; to: string } {
  const rest = line.slice(FILE_START.length);
  const middle = rest.lastIndexOf(' b/');
  if (middle < 0) return { from: stripPrefix(rest), to: stripPrefix(rest) };
  return { from: stripPrefix(rest.slice(0, middle)), to: stripPrefix(rest.slice(middle + 1)) };
}

function newFile(startLine: string): DiffFile {
  const { from, to } = pathsOfStart(startLine);
  return {
    path: to,
    ...(from === to ? {} : { oldPath: from }),
    header: [startLine],
    hunks: [],
    binary: false,
    added: false,
    deleted: false,
    additions: 0,
    deletions: 0,
  };
}

/** Reads a header line into the file: what kind of change it is, and a path git spells out. */
function readHeaderLine(file: DiffFile, line: string): void {
  if (line.startsWith('new file mode')) file.added = true;
  else if (line.startsWith('deleted file mode')) file.deleted = true;
  else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
  else if (line === '--- /dev/null') file.added = true;
  else if (line === '+++ /dev/null') {
    file.deleted = true;
    if (file.oldPath !== undefined) file.path = file.oldPath;
  } else if (line.startsWith('rename from ')) file.oldPath = line.slice('rename from '.length);
  else if (line.startsWith('rename to ')) file.path = line.slice('rename to '.length);
}

function countLine(hunk: DiffHunk, file: DiffFile, line: string): void {
  if (line.startsWith('+')) {
    hunk.additions++;
    file.additions++;
  } else if (line.startsWith('-')) {
    hunk.deletions++;
    file.deletions++;
  }
}

/**
 * The files of a unified diff, in order. Text before the first `diff --git` line (a mail header)
 * is dropped.
 *
 * @example splitDiff(await gh(['pr', 'diff', '7'])).map((f) => f.path)
 */
export function splitDiff(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: DiffHunk | undefined;
  const lines = diff.split('\n');
  // A diff ends with a newline; the empty string after it is not a line of the last hunk.
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith(FILE_START)) {
      file = newFile(line);
      files.push(file);
      hunk = undefined;
    } else if (!file) {
      continue;
    } else if (line.startsWith(HUNK_START)) {
      hunk = { header: line, lines: [], additions: 0, deletions: 0 };
      file.hunks.push(hunk);
    } else if (hunk) {
      hunk.lines.push(line);
      countLine(hunk, file, line);
    } else {
      file.header.push(line);
      readHeaderLine(file, line);
    }
  }
  return files;
}

/**
 * One file's patch as a forge's files API gives it (hunks only, no header: GitHub's
 * `files[].patch`, GitLab's `diffs[].diff`) as a file of a diff.
 */
export function fileFromPatch(
  patch: { path: string; oldPath?: string; patch: string | undefined },
  change: { added?: boolean; deleted?: boolean; binary?: boolean } = {},
): DiffFile {
  const from = patch.oldPath ?? patch.path;
  const header = [
    `${FILE_START}a/${from} b/${patch.path}`,
    ...(change.added ? ['new file mode 100644'] : []),
    ...(change.deleted ? ['deleted file mode 100644'] : []),
  ];
  const binary = change.binary === true || patch.patch === undefined;
  if (binary) header.push(`Binary files a/${from} and b/${patch.path} differ`);
  else {
    header.push(change.added ? '--- /dev/null' : `--- a/${from}`);
    header.push(change.deleted ? '+++ /dev/null' : `+++ b/${patch.path}`);
  }
  const [file] = splitDiff([...header, ...(binary ? [] : [patch.patch ?? ''])].join('\n') + '\n');
  if (!file) throw new Error(`no diff for ${patch.path}`);
  return file;
}

/** The file's section of the diff, as text ending with a newline. */
export function renderFile(file: DiffFile): string {
  const lines = [...file.header];
  for (const hunk of file.hunks) lines.push(hunk.header, ...hunk.lines);
  return `${lines.join('\n')}\n`;
}

/** The files as one diff. */
export function renderDiff(files: readonly DiffFile[]): string {
  return files.map(renderFile).join('');
}
