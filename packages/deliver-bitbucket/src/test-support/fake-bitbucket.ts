/**
 * A fake Bitbucket Cloud for tests: a real HTTPS server on 127.0.0.1 (a self-signed certificate
 * that this process, the in-process gateway under test, trusts while the fake runs) that speaks the
 * part of `/2.0` the targets use, as Bitbucket documents it, and keeps what they write as state: pull request
 * comments (listed page by page with `next`, created, inline with `inline: { path, to }`, edited
 * with PUT, deleted, which Bitbucket keeps as `deleted: true`, replies with `parent`, threads
 * resolved and reopened through `…/comments/{id}/resolve` and shown by a top-level comment's
 * `resolution`), the pull request's diff (a redirect
 * to the repository's diff, as Bitbucket answers it), the diff between two commits of a repository
 * backed by real git (`/diff/{a}..{b}`: the changes of `a` since its merge base with `b`; Bitbucket
 * documents this order as the opposite of `git diff`'s), files at a commit (`/src/{commit}/{path}`, raw), and commits'
 * build statuses; the token's user (`/user`, refused to an access token as Bitbucket does) and
 * users' effective permission on a repository (`/workspaces/{ws}/permissions/repositories/{slug}`,
 * filtered by `q=user.uuid="…"`, 403 when the token is no administrator). A wrong token
 * gets 401, an unknown repository or pull request 404, a body without its required fields 400.
 */
import {
  diffBetween,
  hasCommit,
  startFakeHttpsService,
  trustCertificate,
  type FakeAnswer,
  type FakeHttpsService,
  type ReceivedRequest,
} from '@webhook-gateway/target-kit/testing';

interface FakeComment {
  id: number;
  /** `workspace/slug#id`. */
  pull: string;
  raw: string;
  inline?: { path: string; to: number };
  user: { uuid: string; nickname: string };
  deleted: boolean;
  /** A reply's parent comment. */
  parent?: number;
  /** Who resolved the thread this top-level comment starts. */
  resolution?: { uuid: string; nickname: string };
}

interface FakeBuildStatus {
  repo: string;
  commit: string;
  key: string;
  state: string;
  name: string;
  url: string;
  description: string;
}

export interface FakeBitbucket {
  /** `https://127.0.0.1:<port>/2.0`: `platforms.bitbucket.base_url`. */
  apiBase: string;
  /** Its certificate (PEM), for `NODE_EXTRA_CA_CERTS` of a gateway started as a process. */
  certFile: string;
  comments: FakeComment[];
  statuses: FakeBuildStatus[];
  requests: ReceivedRequest[];
  /** A comment someone else wrote. */
  addComment(pull: string, raw: string, nickname: string): FakeComment;
  /** Someone else's reply to comment `parent`. */
  reply(parent: number, raw: string, nickname: string): FakeComment;
  /** Someone else resolves the thread comment `id` starts. */
  resolveAsPerson(id: number, nickname: string): void;
  /** A push: the pull request's diff from now on. */
  setDiff(pull: string, diff: string): void;
  /** Answers the next `times` requests that `matches` with `answer` instead. */
  failNext(
    matches: (request: ReceivedRequest) => boolean,
    answer: FakeAnswer,
    times?: number,
  ): void;
  close(): Promise<void>;
}

export interface FakeBitbucketOptions {
  token: string;
  /** The token's bot account. */
  bot: { uuid: string; nickname: string };
  /** The pull requests it knows, `workspace/slug#id`, with their unified diff. */
  pulls: Record<string, { diff: string }>;
  /** Comments per page of a listing. */
  pagelen?: number;
  /** The repositories' files per commit: `{ 'workspace/slug': { '<commit>': { path: text } } }`. */
  files?: Record<string, Record<string, Record<string, string>>>;
  /** The git repository (its directory) behind `workspace/slug`, for diffs between its commits. */
  repositories?: Record<string, string>;
  /** Users' effective permission on every repository (`read`, `write`, `admin`), by `uuid`. */
  permissions?: Record<string, string>;
  /** Whether the token administers the repositories (default true): else 403 on permissions. */
  tokenIsAdmin?: boolean;
  /** A user's token answers `GET /user` with its account; an access token (none) is refused. */
  tokenUser?: { uuid: string; account_id: string; nickname: string };
}

const BUILD_STATES = new Set(['SUCCESSFUL', 'FAILED', 'INPROGRESS', 'STOPPED']);

function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const error = (status: number, message: string): FakeAnswer => ({
  status,
  body: { type: 'error', error: { message } },
});
const notFound = error(404, 'Resource not found');

export async function startFakeBitbucket(options: FakeBitbucketOptions): Promise<FakeBitbucket> {
  const comments: FakeComment[] = [];
  const statuses: FakeBuildStatus[] = [];
  const failures: {
    matches: (r: ReceivedRequest) => boolean;
    answer: FakeAnswer;
    left: number;
  }[] = [];
  const pagelen = options.pagelen ?? 10;
  let nextId = 1000;
  let origin = '';
  const repos = new Set(Object.keys(options.pulls).map((key) => key.split('#')[0]));

  const commentJson = (comment: FakeComment) => ({
    id: comment.id,
    type: 'pullrequest_comment',
    content: { type: 'rendered', raw: comment.raw, markup: 'markdown', html: '' },
    user: { type: 'user', display_name: comment.user.nickname, ...comment.user },
    deleted: comment.deleted,
    ...(comment.inline ? { inline: comment.inline } : {}),
    ...(comment.parent !== undefined ? { parent: { id: comment.parent } } : {}),
    ...(comment.resolution
      ? {
          resolution: {
            type: 'comment_resolution',
            user: { type: 'user', ...comment.resolution },
            created_on: '2026-01-01T00:00:00Z',
          },
        }
      : {}),
  });

  const comment = (pull: string, id: string) =>
    comments.find((c) => c.pull === pull && c.id === Number(id) && !c.deleted);

  /** The comment's raw text and inline anchor from a request body, or the 400 it gets. */
  function readComment(
    json: unknown,
  ): { raw: string; inline?: FakeComment['inline']; parent?: number } | FakeAnswer {
    const body = object(json);
    const raw = object(body?.content)?.raw;
    if (typeof raw !== 'string' || raw === '')
      return error(400, 'content.raw: This field is required.');
    const parent = object(body?.parent)?.id;
    if (typeof parent === 'number') return { raw, parent };
    if (body?.inline === undefined) return { raw };
    const inline = object(body.inline);
    if (typeof inline?.path !== 'string' || typeof inline.to !== 'number') {
      return error(400, 'inline: path and to are required');
    }
    return { raw, inline: { path: inline.path, to: inline.to } };
  }

  const PULL = '^/2\\.0/repositories/([^/]+/[^/]+)/pullrequests/(\\d+)';
  const routes: [string, RegExp, (m: RegExpExecArray, r: ReceivedRequest) => FakeAnswer][] = [
    [
      'GET',
      /^\/2\.0\/user$/,
      () =>
        options.tokenUser
          ? { status: 200, body: { type: 'user', ...options.tokenUser } }
          : error(401, 'Token is invalid or not supported for this endpoint.'),
    ],
    [
      'GET',
      /^\/2\.0\/workspaces\/([^/]+)\/permissions\/repositories\/([^/]+)$/,
      (m, r) => {
        if (!repos.has(`${m[1]}/${m[2]}`)) return notFound;
        if (options.tokenIsAdmin === false) {
          return error(403, 'You do not have admin access to this repository.');
        }
        // As Bitbucket's filter language: `user.uuid="{…}"`.
        const query = new URL(r.url, origin).searchParams.get('q') ?? '';
        const uuid = /^user\.uuid="([^"]+)"$/.exec(query)?.[1];
        const values = Object.entries(options.permissions ?? {})
          .filter(([user]) => uuid === undefined || user === uuid)
          .map(([user, permission]) => ({
            type: 'repository_permission',
            user: { type: 'user', uuid: user },
            repository: { type: 'repository', full_name: `${m[1]}/${m[2]}` },
            permission,
          }));
        return { status: 200, body: { pagelen: 10, page: 1, size: values.length, values } };
      },
    ],
    [
      'GET',
      new RegExp(`${PULL}/comments$`),
      (m, r) => {
        const pull = `${m[1]}#${m[2]}`;
        if (!(pull in options.pulls)) return notFound;
        const page = Number(new URL(r.url, origin).searchParams.get('page') ?? '1');
        const all = comments.filter((c) => c.pull === pull);
        const values = all.slice((page - 1) * pagelen, page * pagelen).map(commentJson);
        const more = page * pagelen < all.length;
        return {
          status: 200,
          body: {
            pagelen,
            page,
            values,
            ...(more
              ? {
                  next: `${origin}/2.0/repositories/${m[1]}/pullrequests/${m[2]}/comments?page=${page + 1}`,
                }
              : {}),
          },
        };
      },
    ],
    [
      'POST',
      new RegExp(`${PULL}/comments$`),
      (m, r) => {
        const pull = `${m[1]}#${m[2]}`;
        if (!(pull in options.pulls)) return notFound;
        const read = readComment(r.json);
        if ('status' in read) return read;
        const created: FakeComment = {
          id: nextId++,
          pull,
          raw: read.raw,
          ...(read.inline ? { inline: read.inline } : {}),
          ...(read.parent !== undefined ? { parent: read.parent } : {}),
          user: options.bot,
          deleted: false,
        };
        comments.push(created);
        return { status: 201, body: commentJson(created) };
      },
    ],
    [
      'PUT',
      new RegExp(`${PULL}/comments/(\\d+)$`),
      (m, r) => {
        const found = comment(`${m[1]}#${m[2]}`, m[3] ?? '');
        if (!found) return notFound;
        const read = readComment(r.json);
        if ('status' in read) return read;
        found.raw = read.raw;
        return { status: 200, body: commentJson(found) };
      },
    ],
    [
      'DELETE',
      new RegExp(`${PULL}/comments/(\\d+)$`),
      (m) => {
        const found = comment(`${m[1]}#${m[2]}`, m[3] ?? '');
        if (!found) return notFound;
        found.deleted = true;
        return { status: 204, body: '' };
      },
    ],
    [
      'POST',
      new RegExp(`${PULL}/comments/(\\d+)/resolve$`),
      (m) => {
        const found = comment(`${m[1]}#${m[2]}`, m[3] ?? '');
        if (!found) return notFound;
        if (found.parent !== undefined || !found.inline) {
          return error(403, 'Only top-level comments on the diff can be resolved.');
        }
        if (found.resolution) return error(409, 'This comment has already been resolved.');
        found.resolution = options.bot;
        return {
          status: 200,
          body: { type: 'comment_resolution', user: options.bot, created_on: '' },
        };
      },
    ],
    [
      'DELETE',
      new RegExp(`${PULL}/comments/(\\d+)/resolve$`),
      (m) => {
        const found = comment(`${m[1]}#${m[2]}`, m[3] ?? '');
        if (!found?.resolution) return notFound;
        delete found.resolution;
        return { status: 204, body: '' };
      },
    ],
    [
      'GET',
      new RegExp(`${PULL}/diff$`),
      (m) =>
        `${m[1]}#${m[2]}` in options.pulls
          ? {
              status: 302,
              headers: { location: `${origin}/2.0/repositories/${m[1]}/diff/pr-${m[2]}` },
              body: '',
            }
          : notFound,
    ],
    [
      'GET',
      /^\/2\.0\/repositories\/([^/]+\/[^/]+)\/diff\/pr-(\d+)$/,
      (m) => {
        const pull = options.pulls[`${m[1]}#${m[2]}`];
        return pull ? { status: 200, body: pull.diff } : notFound;
      },
    ],
    [
      'GET',
      /^\/2\.0\/repositories\/([^/]+\/[^/]+)\/diff\/([0-9a-f]+)\.\.([0-9a-f]+)$/,
      (m) => {
        const dir = options.repositories?.[m[1] ?? ''];
        const [changed = '', comparedTo = ''] = [m[2], m[3]];
        if (!dir || !hasCommit(dir, changed) || !hasCommit(dir, comparedTo)) return notFound;
        // The first commit holds the changes, the second is what they are compared to.
        return { status: 200, body: diffBetween(dir, comparedTo, changed) };
      },
    ],
    [
      'GET',
      /^\/2\.0\/repositories\/([^/]+\/[^/]+)\/src\/([0-9a-f]+)\/(.+)$/,
      (m) => {
        const path = decodeURIComponent(m[3] ?? '');
        const text = options.files?.[m[1] ?? '']?.[m[2] ?? '']?.[path];
        return text === undefined ? notFound : { status: 200, body: text };
      },
    ],
    [
      'POST',
      /^\/2\.0\/repositories\/([^/]+\/[^/]+)\/commit\/([0-9a-f]+)\/statuses\/build$/,
      (m, r) => {
        if (!repos.has(m[1] ?? '')) return notFound;
        const json = object(r.json) ?? {};
        const { key, state, url } = json;
        if (typeof key !== 'string' || key === '')
          return error(400, 'key: This field is required.');
        if (typeof state !== 'string' || !BUILD_STATES.has(state))
          return error(400, 'state: invalid');
        if (typeof url !== 'string' || url === '')
          return error(400, 'url: This field is required.');
        const status: FakeBuildStatus = {
          repo: m[1] ?? '',
          commit: m[2] ?? '',
          key,
          state,
          url,
          name: typeof json.name === 'string' ? json.name : '',
          description: typeof json.description === 'string' ? json.description : '',
        };
        statuses.push(status);
        return { status: 201, body: { type: 'build', ...status } };
      },
    ],
  ];

  const service: FakeHttpsService = await startFakeHttpsService((request) => {
    const failure = failures.find((f) => f.left > 0 && f.matches(request));
    if (failure) {
      failure.left--;
      return failure.answer;
    }
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return error(401, 'Access token expired or invalid');
    }
    const path = request.url.split('?')[0] ?? '';
    for (const [method, pattern, handle] of routes) {
      const match = pattern.exec(path);
      if (match && method === request.method) return handle(match, request);
    }
    return notFound;
  });
  origin = service.url;
  const untrust = trustCertificate(service.certFile);

  return {
    apiBase: `${service.url}/2.0`,
    certFile: service.certFile,
    comments,
    statuses,
    requests: service.requests,
    addComment(pull, raw, nickname) {
      const added = {
        id: nextId++,
        pull,
        raw,
        user: { uuid: `{${nickname}}`, nickname },
        deleted: false,
      };
      comments.push(added);
      return added;
    },
    reply(parent, raw, nickname) {
      const first = comments.find((c) => c.id === parent);
      if (!first) throw new Error(`no comment ${parent}`);
      const added: FakeComment = {
        id: nextId++,
        pull: first.pull,
        raw,
        parent,
        user: { uuid: `{${nickname}}`, nickname },
        deleted: false,
      };
      comments.push(added);
      return added;
    },
    resolveAsPerson(id, nickname) {
      const found = comments.find((c) => c.id === id);
      if (!found) throw new Error(`no comment ${id}`);
      found.resolution = { uuid: `{${nickname}}`, nickname };
    },
    setDiff(pull, diff) {
      options.pulls[pull] = { diff };
    },
    failNext(matches, answer, times = 1) {
      failures.push({ matches, answer, left: times });
    },
    close: () => {
      untrust();
      return service.close();
    },
  };
}
