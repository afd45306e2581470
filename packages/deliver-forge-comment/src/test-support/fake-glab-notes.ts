/**
 * A fake `glab` that keeps merge-request notes as state: `glab mr note <iid> --repo <path>` posts
 * stdin as a note, and `glab api` speaks the altforge's REST v4 for notes: list (sort, order_by,
 * per_page, page), post, edit (PUT), delete. Like the
 * real glab with GitLab behind it, an `--input` body without a JSON Content-Type header is
 * refused with 415, and a note that does not exist is a 404. State lives in a JSON file, so the
 * test and the fake (a separate process) both see it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface FakeNote {
  id: number;
  body: string;
}

export interface FakeGlabNotes {
  /** The temp dir holding the executable `glab`: put it first on PATH. */
  dir: string;
  /** Notes per `group/project!iid`, oldest first. */
  notes(mergeRequest: string): FakeNote[];
  /** Replaces the notes of a merge request (as people or other tools wrote them). */
  setNotes(mergeRequest: string, notes: FakeNote[]): void;
  /** Every call's argv, in order. */
  calls(): string[][];
  cleanup(): void;
}

function script(dir: string): string {
  return `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const dir = ${JSON.stringify(dir)};
const stateFile = path.join(dir, 'notes.json');
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const argv = process.argv.slice(2);
  fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(argv) + '\\n');
  const fail = (status, message) => {
    process.stderr.write('glab: ' + status + ' ' + message + ' (HTTP ' + status + ')\\n');
    process.exitCode = 1;
  };
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  const save = () => fs.writeFileSync(stateFile, JSON.stringify(state));
  const notesOf = (key) => (state.notes[key] = state.notes[key] ?? []);
  const stdin = Buffer.concat(chunks).toString('utf8');
  if (argv[0] === 'mr' && argv[1] === 'note' && argv[3] === '--repo') {
    const note = { id: state.nextId++, body: stdin };
    notesOf(argv[4] + '!' + argv[2]).push(note);
    save();
    process.stdout.write('https://gitlab.invalid/' + argv[4] + '/-/merge_requests/' + argv[2] + '#note_' + note.id + '\\n');
    return;
  }
  if (argv[0] !== 'api') return fail(400, 'the fake knows only "glab mr note" and "glab api"');
  let method;
  let endpoint;
  let input = false;
  const headers = [];
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === '-X' || argv[i] === '--method') method = argv[++i];
    else if (argv[i] === '-H' || argv[i] === '--header') headers.push(argv[++i]);
    else if (argv[i] === '--input') input = argv[++i] === '-';
    else endpoint = argv[i];
  }
  method = method ?? (input ? 'POST' : 'GET');
  if (input && !headers.some((h) => /^content-type:\\s*application\\/json/i.test(h))) {
    return fail(415, "The provided content-type '' is not supported.");
  }
  const url = new URL(endpoint, 'https://gitlab.invalid/api/v4/');
  const match = /^\\/api\\/v4\\/projects\\/([^/]+)\\/merge_requests\\/(\\d+)\\/notes(?:\\/(\\d+))?$/.exec(url.pathname);
  if (!match) return fail(404, 'Not Found');
  const notes = notesOf(decodeURIComponent(match[1]) + '!' + match[2]);
  const body = () => JSON.parse(stdin).body;
  const noteId = match[3] === undefined ? undefined : Number(match[3]);
  if (noteId === undefined && method === 'GET') {
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 20));
    const page = Number(url.searchParams.get('page') ?? 1);
    const ordered = url.searchParams.get('sort') === 'asc' ? notes : [...notes].reverse();
    const slice = ordered.slice((page - 1) * perPage, page * perPage);
    process.stdout.write(JSON.stringify(slice.map((n) => ({ ...n, system: false }))));
    return;
  }
  if (noteId === undefined && method === 'POST') {
    const note = { id: state.nextId++, body: body() };
    notes.push(note);
    save();
    process.stdout.write(JSON.stringify(note));
    return;
  }
  const index = notes.findIndex((n) => n.id === noteId);
  if (index < 0) return fail(404, 'Not found');
  if (method === 'PUT') {
    notes[index].body = body();
    save();
    process.stdout.write(JSON.stringify(notes[index]));
    return;
  }
  if (method === 'DELETE') {
    notes.splice(index, 1);
    save();
    return;
  }
  fail(405, 'Method Not Allowed');
});
`;
}

/** Creates the fake `glab` in a new temp dir, with no notes. */
export function createFakeGlabNotes(): FakeGlabNotes {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-fake-glab-'));
  const file = path.join(dir, 'glab');
  fs.writeFileSync(file, script(dir), { mode: 0o755 });
  const stateFile = path.join(dir, 'notes.json');
  type State = { nextId: number; notes: Record<string, FakeNote[]> };
  const read = (): State => JSON.parse(fs.readFileSync(stateFile, 'utf8')) as State;
  fs.writeFileSync(stateFile, JSON.stringify({ nextId: 5000, notes: {} } satisfies State));
  const callsFile = path.join(dir, 'calls.jsonl');
  return {
    dir,
    notes: (mergeRequest) => read().notes[mergeRequest] ?? [],
    setNotes(mergeRequest, notes) {
      const state = read();
      state.notes[mergeRequest] = notes;
      fs.writeFileSync(stateFile, JSON.stringify(state));
    },
    calls() {
      if (!fs.existsSync(callsFile)) return [];
      return fs
        .readFileSync(callsFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as string[]);
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
