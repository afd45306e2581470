/**
 * A fake Bitbucket Data Center for tests: a real HTTPS server on 127.0.0.1 (a self-signed
 * certificate this process trusts while the fake runs) that speaks the part of `/rest/api/1.0`
 * the targets use, as Data Center's REST reference documents it, and keeps what they write as
 * state: pull request comments (each with the `version` an edit, a resolution or a delete must
 * name, a stale one answered `409`), replies (`parent`), each thread's `state` and
 * `threadResolved`, their activities (listed page by page with `start`, `isLastPage` and
 * `nextPageStart`: a thread's first comment `ADDED` with its replies nested in `comments`, each
 * reply also its own `REPLIED` activity), line comments' `anchor`s, the pull request's raw diff
 * (`…/pull-requests/{id}.diff`), the raw diff between two commits (`…/diff?since&until`), files
 * at a commit (`…/raw/{path}?at=`), and commits' build statuses (`…/commits/{id}/builds`); the
 * users holding a repository permission (`GET /users?filter&permission.1…`, a higher permission
 * implying a lower one) and `GET /application-properties`. Every authenticated answer names the
 * token's user in `X-AUSERNAME`, as Data Center does. A wrong token gets 401, an unknown
 * repository, pull request or comment 404, a comment of 32,768 characters or more 400 (as Data
 * Center says it), a raw resource asked for as JSON only 406. Stricter than the server on one
 * point: an anchor must name a line its diff shows, as the `lineType` it says.
 */
import {
  startFakeHttpsService,
  trustCertificate,
  type FakeAnswer,
  type FakeHttpsService,
  type ReceivedRequest,
} from '@webhook-gateway/target-kit/testing';

interface FakeUser {
  name: string;
  slug: string;
  id: number;
  displayName: string;
}

interface FakeAnchor {
  path: string;
  line: number;
  lineType: string;
  fileType: string;
  diffType: string;
}

interface FakeComment {
  id: number;
  version: number;
  /** `PROJECT/slug#id`. */
  pull: string;
  text: string;
  author: FakeUser;
  anchor?: FakeAnchor;
  /** The comment this one replies to. */
  parent?: number;
  state: 'OPEN' | 'RESOLVED';
  /** Who resolved the thread this comment starts. */
  resolver?: FakeUser;
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

export interface FakeBitbucketDataCenter {
  /** `http://127.0.0.1:<port>`: `platforms.bitbucket.data_center.base_url`. */
  serverUrl: string;
  comments: FakeComment[];
  statuses: FakeBuildStatus[];
  requests: ReceivedRequest[];
  /** A comment someone else wrote, on a line with `anchor`. */
  addComment(pull: string, text: string, user: string, anchor?: FakeAnchor): FakeComment;
  /** A push: the pull request's diff is now `diff`. */
  setDiff(pull: string, diff: string): void;
  /** Someone edits a comment: its version moves on. */
  editComment(id: number, text: string): void;
  /** Someone replies to a comment (in its thread). */
  reply(parent: number, text: string, user: string): FakeComment;
  /** Someone resolves the thread a comment starts. */
  resolveAsPerson(id: number, user: string): void;
  /** Someone deletes a comment (Data Center lets them once it has no replies). */
  deleteComment(id: number): void;
  /** Answers the next `times` requests that `matches` with `answer` instead. */
  failNext(
    matches: (request: ReceivedRequest) => boolean,
    answer: FakeAnswer,
    times?: number,
  ): void;
  /** The fake's self-signed certificate, for a gateway in another process (`NODE_EXTRA_CA_CERTS`). */
  certFile: string;
  close(): Promise<void>;
}

export interface FakeBitbucketDataCenterOptions {
  token: string;
  /** The token's user. */
  bot: string;
  /** The pull requests it knows, `PROJECT/slug#id`, with their unified diff. */
  pulls: Record<string, { diff: string }>;
  /** Activities per page when the request names no `limit` (Data Center's default is 25). */
  pageSize?: number;
  /** The repositories' files per commit: `{ 'PROJECT/slug': { '<commit>': { path: text } } }`. */
  files?: Record<string, Record<string, Record<string, string>>>;
  /** Raw diffs between two commits, by `PROJECT/slug` and `<since>..<until>`. */
  commitDiffs?: Record<string, Record<string, string>>;
  /** Each user's highest permission on every repository the fake knows, by user name. */
  permissions?: Record<string, RepositoryPermission>;
  /** False: `GET /users` is refused with 403, as for a token Data Center lets list no users. */
  tokenMayListUsers?: boolean;
}

type RepositoryPermission = 'REPO_READ' | 'REPO_WRITE' | 'REPO_ADMIN';
const PERMISSION_RANK: Record<RepositoryPermission, number> = {
  REPO_READ: 1,
  REPO_WRITE: 2,
  REPO_ADMIN: 3,
};
const isPermission = (value: string | null): value is RepositoryPermission =>
  value !== null && value in PERMISSION_RANK;

const BUILD_STATES = new Set(['SUCCESSFUL', 'FAILED', 'INPROGRESS', 'CANCELLED', 'UNKNOWN']);
const LINE_TYPES = new Set(['ADDED', 'CONTEXT', 'REMOVED']);
const FILE_TYPES = new Set(['FROM', 'TO']);
const DIFF_TYPES = new Set(['EFFECTIVE', 'COMMIT', 'RANGE']);

function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const error = (
  status: number,
  message: string,
  context: string | null = null,
  exceptionName: string | null = null,
): FakeAnswer => ({ status, body: { errors: [{ context, message, exceptionName }] } });

/** Data Center's refusal of an edit made at an out-of-date version: for `failNext`. */
export const OUT_OF_DATE_EDIT: FakeAnswer = error(
  409,
  'You are attempting to modify a comment based on out-of-date information.',
  null,
  'com.atlassian.bitbucket.comment.CommentOutOfDateException',
);

const notFound = (what: string) => error(404, `${what} does not exist.`);

/**
 * The new-file lines a unified diff shows for `path`, each as `ADDED` or `CONTEXT`: read line by
 * line here, apart from the gateway's own diff reading, so the fake checks it.
 */
function newFileLines(diff: string, path: string): Map<number, string> {
  const lines = new Map<number, string>();
  let inFile = false;
  let next = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) inFile = false;
    else if (line.startsWith('+++ ')) inFile = line === `+++ b/${path}`;
    else if (inFile && line.startsWith('@@')) next = Number(/\+(\d+)/.exec(line)?.[1] ?? 0);
    else if (inFile && next > 0 && line.startsWith('+')) lines.set(next++, 'ADDED');
    else if (inFile && next > 0 && line.startsWith(' ')) lines.set(next++, 'CONTEXT');
  }
  return lines;
}

export async function startFakeBitbucketDataCenter(
  options: FakeBitbucketDataCenterOptions,
): Promise<FakeBitbucketDataCenter> {
  const comments: FakeComment[] = [];
  const statuses: FakeBuildStatus[] = [];
  const failures: {
    matches: (r: ReceivedRequest) => boolean;
    answer: FakeAnswer;
    left: number;
  }[] = [];
  let nextId = 100;
  const user = (name: string): FakeUser => ({
    name,
    slug: name.toLowerCase(),
    id: name.length,
    displayName: name,
  });
  const bot = user(options.bot);
  const repos = new Set(Object.keys(options.pulls).map((key) => key.split('#')[0]));

  const withEmail = (u: FakeUser) => ({ ...u, emailAddress: `${u.slug}@example.com` });

  /** A comment as Data Center answers it: its replies nested, each with theirs. */
  const commentJson = (comment: FakeComment): Record<string, unknown> => ({
    properties: { repositoryId: 84 },
    id: comment.id,
    version: comment.version,
    text: comment.text,
    author: withEmail(comment.author),
    createdDate: 1505779091796,
    updatedDate: 1505779091796,
    comments: comments.filter((c) => c.parent === comment.id).map(commentJson),
    tasks: [],
    severity: 'NORMAL',
    state: comment.state,
    ...(comment.parent === undefined
      ? {
          threadResolved: comment.state === 'RESOLVED',
          ...(comment.resolver
            ? { threadResolvedDate: 1505779091796, threadResolver: withEmail(comment.resolver) }
            : {}),
        }
      : {}),
    ...(comment.anchor ? { anchor: comment.anchor } : {}),
  });

  /**
   * The comments' activities, newest first as Data Center lists them: a thread's first comment
   * `ADDED` (its replies nested), each reply `REPLIED`.
   */
  const activities = (pull: string) =>
    comments
      .filter((c) => c.pull === pull)
      .reverse()
      .map((c) => ({
        id: c.id * 10,
        createdDate: 1505779091796,
        user: c.author,
        action: 'COMMENTED',
        commentAction: c.parent === undefined ? 'ADDED' : 'REPLIED',
        comment: commentJson(c),
        ...(c.anchor ? { commentAnchor: c.anchor } : {}),
      }));

  const acceptsRaw = (r: ReceivedRequest) => {
    const accept = r.headers.accept ?? '*/*';
    return /text\/plain|\*\/\*/.test(accept);
  };

  /** The comment's text and anchor from a request body, or the 400 it gets. */
  function readComment(
    pull: string,
    json: unknown,
  ): { text: string; anchor?: FakeAnchor } | FakeAnswer {
    const body = object(json);
    const text = body?.text;
    if (typeof text !== 'string' || text.trim() === '' || text.length >= 32_768) {
      return error(400, 'Please enter a non-empty value less than 32768 characters', 'text');
    }
    if (body?.anchor === undefined) return { text };
    const anchor = object(body.anchor);
    const { path, line, lineType, fileType, diffType } = anchor ?? {};
    if (
      typeof path !== 'string' ||
      typeof line !== 'number' ||
      typeof lineType !== 'string' ||
      !LINE_TYPES.has(lineType) ||
      typeof fileType !== 'string' ||
      !FILE_TYPES.has(fileType) ||
      typeof diffType !== 'string' ||
      !DIFF_TYPES.has(diffType)
    ) {
      return error(400, 'The anchor is not valid.', 'anchor');
    }
    const shown = newFileLines(options.pulls[pull]?.diff ?? '', path);
    if (fileType !== 'TO' || shown.get(line) !== lineType) {
      return error(400, `Line ${line} of ${path} is not a ${lineType} line of the diff.`, 'anchor');
    }
    return { text, anchor: { path, line, lineType, fileType, diffType } };
  }

  const REPO = '^/rest/api/(?:1\\.0|latest)/projects/([^/]+)/repos/([^/]+)';
  const PULL = `${REPO}/pull-requests/(\\d+)`;
  type Handle = (m: RegExpExecArray, r: ReceivedRequest, query: URLSearchParams) => FakeAnswer;
  const pullOf = (m: RegExpExecArray) => `${m[1]}/${m[2]}#${m[3]}`;
  const repoOf = (m: RegExpExecArray) => `${m[1]}/${m[2]}`;
  const findComment = (m: RegExpExecArray) =>
    comments.find((c) => c.pull === pullOf(m) && c.id === Number(m[4]));
  const outOfDate = (current: number) =>
    error(
      409,
      `You are attempting to modify a comment based on out-of-date information (its version is ${current}).`,
      null,
      'com.atlassian.bitbucket.comment.CommentOutOfDateException',
    );

  const routes: [string, RegExp, Handle][] = [
    [
      'GET',
      /^\/rest\/api\/(?:1\.0|latest)\/application-properties$/,
      () => ({
        status: 200,
        body: { version: '9.4.0', buildNumber: '9004000', buildDate: '1700000000000' },
      }),
    ],
    [
      'GET',
      /^\/rest\/api\/(?:1\.0|latest)\/users$/,
      (_m, _r, query) => {
        if (options.tokenMayListUsers === false) {
          return error(
            403,
            'You are not permitted to access this resource',
            null,
            'com.atlassian.bitbucket.AuthorisationException',
          );
        }
        const wanted = query.get('permission.1');
        const repo = `${query.get('permission.1.projectKey')}/${query.get('permission.1.repositorySlug')}`;
        if (!isPermission(wanted)) return error(400, 'Invalid permission filter', 'permission.1');
        if (!repos.has(repo)) return error(400, `Repository ${repo} does not exist.`);
        const filter = (query.get('filter') ?? '').toLowerCase();
        const holders = Object.entries(options.permissions ?? {})
          .filter(([, held]) => PERMISSION_RANK[held] >= PERMISSION_RANK[wanted])
          .map(([name]) => user(name))
          .filter((u) => `${u.name} ${u.displayName}`.toLowerCase().includes(filter));
        const start = Number(query.get('start') ?? '0');
        const limit = Number(query.get('limit') ?? '25');
        const values = holders.slice(start, start + limit);
        const isLastPage = start + limit >= holders.length;
        return {
          status: 200,
          body: {
            size: values.length,
            limit,
            start,
            isLastPage,
            values: values.map((u) => ({ ...u, active: true, type: 'NORMAL' })),
            ...(isLastPage ? {} : { nextPageStart: start + limit }),
          },
        };
      },
    ],
    [
      'GET',
      new RegExp(`${PULL}/activities$`),
      (m, _r, query) => {
        if (!(pullOf(m) in options.pulls)) return notFound('Pull request');
        const all = activities(pullOf(m));
        const start = Number(query.get('start') ?? '0');
        const limit = Number(query.get('limit') ?? String(options.pageSize ?? 25));
        const size = Math.min(limit, options.pageSize ?? limit);
        const values = all.slice(start, start + size);
        const isLastPage = start + size >= all.length;
        return {
          status: 200,
          body: {
            size: values.length,
            limit: size,
            start,
            isLastPage,
            values,
            ...(isLastPage ? {} : { nextPageStart: start + size }),
          },
        };
      },
    ],
    [
      'POST',
      new RegExp(`${PULL}/comments$`),
      (m, r) => {
        const pull = pullOf(m);
        if (!(pull in options.pulls)) return notFound('Pull request');
        const read = readComment(pull, r.json);
        if ('status' in read) return read;
        const parentId = object(object(r.json)?.parent)?.id;
        if (parentId !== undefined && !comments.some((c) => c.pull === pull && c.id === parentId))
          return notFound('Comment');
        const created: FakeComment = {
          id: nextId++,
          version: 0,
          pull,
          text: read.text,
          author: bot,
          state: 'OPEN',
          ...(read.anchor ? { anchor: read.anchor } : {}),
          ...(typeof parentId === 'number' ? { parent: parentId } : {}),
        };
        comments.push(created);
        return { status: 201, body: commentJson(created) };
      },
    ],
    [
      'GET',
      new RegExp(`${PULL}/comments/(\\d+)$`),
      (m) => {
        const found = findComment(m);
        return found ? { status: 200, body: commentJson(found) } : notFound('Comment');
      },
    ],
    [
      'PUT',
      new RegExp(`${PULL}/comments/(\\d+)$`),
      (m, r) => {
        const found = findComment(m);
        if (!found) return notFound('Comment');
        const body = object(r.json);
        const version = body?.version;
        if (typeof version !== 'number') return error(400, 'The version is required.', 'version');
        if (version !== found.version) return outOfDate(found.version);
        const { state, text } = body ?? {};
        if (state !== undefined && state !== 'OPEN' && state !== 'RESOLVED')
          return error(400, 'state: must be OPEN or RESOLVED', 'state');
        if (text !== undefined || state === undefined) {
          const read = readComment(found.pull, { text });
          if ('status' in read) return read;
          found.text = read.text;
        }
        if (state !== undefined) {
          found.state = state;
          found.resolver = state === 'RESOLVED' ? bot : undefined;
        }
        found.version++;
        return { status: 200, body: commentJson(found) };
      },
    ],
    [
      'DELETE',
      new RegExp(`${PULL}/comments/(\\d+)$`),
      (m, _r, query) => {
        const found = findComment(m);
        if (!found) return notFound('Comment');
        if (Number(query.get('version')) !== found.version) return outOfDate(found.version);
        comments.splice(comments.indexOf(found), 1);
        return { status: 204, body: '' };
      },
    ],
    [
      'GET',
      new RegExp(`${PULL}\\.diff$`),
      (m, r) => {
        const pull = options.pulls[pullOf(m)];
        if (!pull) return notFound('Pull request');
        return acceptsRaw(r)
          ? { status: 200, body: pull.diff }
          : { status: 406, body: 'Not Acceptable' };
      },
    ],
    [
      'GET',
      new RegExp(`${REPO}/diff$`),
      (m, r, query) => {
        if (!acceptsRaw(r)) return { status: 406, body: 'Not Acceptable' };
        const spec = `${query.get('since') ?? ''}..${query.get('until') ?? ''}`;
        const diff = options.commitDiffs?.[repoOf(m)]?.[spec];
        return diff === undefined ? notFound('Commit') : { status: 200, body: diff };
      },
    ],
    [
      'GET',
      new RegExp(`${REPO}/raw/(.+)$`),
      (m, r, query) => {
        if (!acceptsRaw(r)) return { status: 406, body: 'Not Acceptable' };
        const path = decodeURIComponent(m[3] ?? '');
        const text = options.files?.[repoOf(m)]?.[query.get('at') ?? '']?.[path];
        return text === undefined ? notFound(`The path "${path}"`) : { status: 200, body: text };
      },
    ],
    [
      'POST',
      new RegExp(`${REPO}/commits/([0-9a-f]{40})/builds$`),
      (m, r) => {
        if (!repos.has(repoOf(m))) return notFound('Repository');
        const json = object(r.json) ?? {};
        const { key, state, url } = json;
        const text = (value: unknown) => (typeof value === 'string' ? value : '');
        if (typeof key !== 'string' || key === '' || key.length > 255)
          return error(400, 'key: must be 1 to 255 characters', 'key');
        if (typeof state !== 'string' || !BUILD_STATES.has(state))
          return error(400, 'state: invalid', 'state');
        if (typeof url !== 'string' || url === '' || url.length > 450)
          return error(400, 'url: must be 1 to 450 characters', 'url');
        if (text(json.description).length > 255 || text(json.name).length > 255)
          return error(400, 'name and description: at most 255 characters');
        statuses.push({
          repo: repoOf(m),
          commit: m[3] ?? '',
          key,
          state,
          url,
          name: text(json.name),
          description: text(json.description),
        });
        return { status: 204, body: '' };
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
      return error(
        401,
        'Authentication failed. Please check your credentials and try again.',
        null,
        'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException',
      );
    }
    const [path = '', search = ''] = request.url.split('?');
    for (const [method, pattern, handle] of routes) {
      const match = pattern.exec(path);
      if (match && method === request.method) {
        const answer = handle(match, request, new URLSearchParams(search));
        return { ...answer, headers: { ...answer.headers, 'X-AUSERNAME': bot.name } };
      }
    }
    return notFound('The resource');
  });

  const untrust = trustCertificate(service.certFile);
  const known = (id: number) => {
    const found = comments.find((c) => c.id === id);
    if (!found) throw new Error(`no comment ${id}`);
    return found;
  };

  return {
    serverUrl: service.url,
    certFile: service.certFile,
    comments,
    statuses,
    requests: service.requests,
    addComment(pull, text, name, anchor) {
      const added: FakeComment = {
        id: nextId++,
        version: 0,
        pull,
        text,
        author: user(name),
        state: 'OPEN',
        ...(anchor ? { anchor } : {}),
      };
      comments.push(added);
      return added;
    },
    setDiff(pull, diff) {
      const known = options.pulls[pull];
      if (!known) throw new Error(`no pull request ${pull}`);
      known.diff = diff;
    },
    editComment(id, text) {
      const found = known(id);
      found.text = text;
      found.version++;
    },
    reply(parent, text, name) {
      const added: FakeComment = {
        id: nextId++,
        version: 0,
        pull: known(parent).pull,
        text,
        author: user(name),
        state: 'OPEN',
        parent,
      };
      comments.push(added);
      return added;
    },
    resolveAsPerson(id, name) {
      const found = known(id);
      found.state = 'RESOLVED';
      found.resolver = user(name);
      found.version++;
    },
    deleteComment(id) {
      const found = known(id);
      if (comments.some((c) => c.parent === id)) throw new Error(`comment ${id} has replies`);
      comments.splice(comments.indexOf(found), 1);
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
