/**
 * A fake `glab` for the altforge (glab is not packaged here): a real executable (a node script)
 * that answers `glab api <endpoint> --method M --include` from a state file the way GitLab's API
 * would (hook events page by page with `X-Next-Page`; `POST …/events/:id/resend` sends the stored
 * body again with the same `Idempotency-Key` and the hook's secret token, logging the attempt).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface FakeGlabEvent {
  id: number;
  url: string;
  trigger: string;
  request_headers: Record<string, string>;
  request_data: string;
  response_status: string;
  created_at: string;
  /** The hook (`projects/<encoded path>/hooks/<id>`) it belongs to; not part of GitLab's answer. */
  hook: string;
}

interface State {
  token: string;
  pageSize: number;
  hooks: Record<string, { url: string; secret: string }>;
  events: FakeGlabEvent[];
  resends: number[];
  nextId: number;
}

export interface FakeGlab {
  /** Absolute path: `platforms.altforge.cli`. */
  path: string;
  token: string;
  addHook(project: string, hookId: number, hook: { url: string; secret: string }): void;
  /** Sends a merge-request event to the hook now (or only logs it failed with `failedWith`). */
  deliver(
    project: string,
    hookId: number,
    event: { uuid: string; payload: object; failedWith?: string; at?: Date },
  ): Promise<FakeGlabEvent>;
  resends(): number[];
  setPageSize(size: number): void;
  cleanup(): void;
}

const SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const file = path.join(__dirname, 'state.json');
const state = JSON.parse(fs.readFileSync(file, 'utf8'));
const save = () => fs.writeFileSync(file, JSON.stringify(state));
const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const answer = (status, text, headers, body) => {
  let out = 'HTTP/1.1 ' + status + ' ' + text + '\\n';
  for (const [k, v] of Object.entries({ 'Content-Type': 'application/json', ...headers })) out += k + ': ' + v + '\\n';
  process.stdout.write(out + '\\n' + JSON.stringify(body));
  if (status >= 400) { process.stderr.write('glab: ' + status + ' ' + text + '\\n'); process.exitCode = 1; }
};
async function main() {
  if (args[0] !== 'api' || !args.includes('--include')) { process.stderr.write('fake glab: only "api … --include"\\n'); process.exitCode = 2; return; }
  if (!process.env.GITLAB_TOKEN) { process.stderr.write('glab: no token found; run glab auth login\\n'); process.exitCode = 1; return; }
  if (process.env.GITLAB_TOKEN !== state.token) return answer(401, 'Unauthorized', {}, { message: '401 Unauthorized' });
  const endpoint = new URL(args[1], 'https://altforge.invalid/api/v4/');
  const method = option('--method') || 'GET';
  const route = endpoint.pathname.replace(/^\\/api\\/v4\\//, '');
  let m = /^(projects\\/[^/]+\\/hooks\\/\\d+)\\/events$/.exec(route);
  if (m && method === 'GET') {
    if (!state.hooks[m[1]]) return answer(404, 'Not Found', {}, { message: '404 Not found' });
    const page = Number(endpoint.searchParams.get('page') || '1');
    const per = Math.min(Number(endpoint.searchParams.get('per_page') || '20'), state.pageSize);
    const all = state.events.filter((e) => e.hook === m[1]).sort((a, b) => b.id - a.id);
    const items = all.slice((page - 1) * per, page * per).map(({ hook, ...e }) => e);
    const headers = page * per < all.length ? { 'X-Next-Page': String(page + 1) } : { 'X-Next-Page': '' };
    return answer(200, 'OK', headers, items);
  }
  m = /^(projects\\/[^/]+\\/hooks\\/\\d+)\\/events\\/(\\d+)\\/resend$/.exec(route);
  if (m && method === 'POST') {
    const hook = state.hooks[m[1]];
    const original = state.events.find((e) => e.hook === m[1] && e.id === Number(m[2]));
    if (!hook || !original) return answer(404, 'Not Found', {}, { message: '404 Not found' });
    state.resends.push(original.id);
    const headers = { ...original.request_headers, 'X-Gitlab-Event-UUID': require('node:crypto').randomUUID() };
    let status = 'internal error';
    try {
      const res = await fetch(hook.url, { method: 'POST', headers: { ...headers, 'X-Gitlab-Token': hook.secret }, body: original.request_data });
      await res.arrayBuffer();
      status = String(res.status);
    } catch {}
    state.events.push({ ...original, id: state.nextId++, request_headers: headers, response_status: status, created_at: new Date().toISOString() });
    save();
    return answer(201, 'Created', {}, { response_status: status });
  }
  answer(404, 'Not Found', {}, { message: '404 Not found' });
}
main();
`;

export function createFakeGlab(options: { token?: string } = {}): FakeGlab {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-fake-glab-'));
  const file = path.join(dir, 'glab');
  fs.writeFileSync(file, `#!${process.execPath}\n${SCRIPT}`, { mode: 0o755 });
  const stateFile = path.join(dir, 'state.json');
  const token = options.token ?? 'glpat-fake-reconcile-token';
  const initial: State = { token, pageSize: 100, hooks: {}, events: [], resends: [], nextId: 500 };
  fs.writeFileSync(stateFile, JSON.stringify(initial));
  const read = () => JSON.parse(fs.readFileSync(stateFile, 'utf8')) as State;
  const write = (state: State) => fs.writeFileSync(stateFile, JSON.stringify(state));
  const hookKey = (project: string, hookId: number) =>
    `projects/${encodeURIComponent(project)}/hooks/${hookId}`;
  return {
    path: file,
    token,
    addHook(project, hookId, hook) {
      const state = read();
      state.hooks[hookKey(project, hookId)] = hook;
      write(state);
    },
    async deliver(project, hookId, event) {
      const key = hookKey(project, hookId);
      const state = read();
      const hook = state.hooks[key];
      if (!hook) throw new Error(`the fake glab has no hook ${key}`);
      const headers = {
        'Content-Type': 'application/json',
        'X-Gitlab-Event': 'Merge Request Hook',
        'X-Gitlab-Event-UUID': randomUUID(),
        'Idempotency-Key': event.uuid,
      };
      const body = JSON.stringify(event.payload);
      let status = event.failedWith;
      if (status === undefined) {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { ...headers, 'X-Gitlab-Token': hook.secret },
          body,
        });
        await response.arrayBuffer();
        status = String(response.status);
      }
      const logged: FakeGlabEvent = {
        id: state.nextId++,
        url: hook.url,
        trigger: 'merge_request',
        request_headers: headers,
        request_data: body,
        response_status: status,
        created_at: (event.at ?? new Date()).toISOString(),
        hook: key,
      };
      state.events.push(logged);
      write(state);
      return logged;
    },
    resends: () => read().resends,
    setPageSize(size) {
      const state = read();
      state.pageSize = size;
      write(state);
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
