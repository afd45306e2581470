/**
 * A fake Bitbucket Data Center for tests: a real HTTPS server on 127.0.0.1 (a self-signed certificate this process trusts while the fake runs) that speaks the part of
 * `/rest/api/1.0` the targets use, as Data Center's REST reference documents it, and keeps what
 * they write as state: pull request comments (each with the `version` an edit or delete must
 * name, a stale one answered `409`), their activities (listed page by page with `start`,
 * `isLastPage` and `nextPageStart`), line comments' `anchor`s, the pull request's raw diff
 * (`…/pull-requests/{id}.diff`), the raw diff between two commits (`…/diff?since&until`), files
 * at a commit (`…/raw/{path}?at=`), and commits' build statuses (`…/commits/{id}/builds`). A wrong
 * token gets 401, an unknown repository, pull request or comment 404, a comment of 32,768
 * characters or more 400 (as Data Center says it), a raw resource asked for as JSON only 406.
 * Stricter than the server on one point: an anchor must name a line its diff shows, as the
 * `lineType` it says.
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
  /** A comment someone else wrote. */
  addComment(pull: string, text: string, user: string): FakeComment;
  /** Someone edits a comment: its version moves on. */
  editComment(id: number, text: string): void;
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
}

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

  const commentJson = (comment: FakeComment) => ({
    properties: { repositoryId: 84 },
    id: comment.id,
    version: comment.version,
    text: comment.text,
    author: { ...comment.author, emailAddress: `${comment.author.slug}@example.com` },
    createdDate: 1505779091796,
    updatedDate: 1505779091796,
    comments: [],
    tasks: [],
    severity: 'NORMAL',
    state: 'OPEN',
    ...(comment.anchor ? { anchor: comment.anchor } : {}),
  });

  /** A comment's activity, newest first as Data Center lists them. */
  const activities = (pull: string) =>
    comments
      .filter((c) => c.pull === pull)
      .reverse()
      .map((c) => ({
        id: c.id * 10,
        createdDate: 1505779091796,
        user: c.author,
        action: 'COMMENTED',
        commentAction: 'ADDED',
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
        const created: FakeComment = {
          id: nextId++,
          version: 0,
          pull,
          text: read.text,
          author: bot,
          ...(read.anchor ? { anchor: read.anchor } : {}),
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
        const version = object(r.json)?.version;
        if (typeof version !== 'number') return error(400, 'The version is required.', 'version');
        if (version !== found.version) return outOfDate(found.version);
        const read = readComment(found.pull, { text: object(r.json)?.text });
        if ('status' in read) return read;
        found.text = read.text;
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
        return handle(match, request, new URLSearchParams(search));
      }
    }
    return notFound('The resource');
  });

  const untrust = trustCertificate(service.certFile);

  return {
    serverUrl: service.url,
    certFile: service.certFile,
    comments,
    statuses,
    requests: service.requests,
    addComment(pull, text, name) {
      const added: FakeComment = { id: nextId++, version: 0, pull, text, author: user(name) };
      comments.push(added);
      return added;
    },
    editComment(id, text) {
      const found = comments.find((c) => c.id === id);
      if (!found) throw new Error(`no comment ${id}`);
      found.text = text;
      found.version++;
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
