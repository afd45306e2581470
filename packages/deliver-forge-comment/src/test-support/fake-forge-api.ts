/**
 * A GitHub-REST-compatible fake over TLS on 127.0.0.1 for the real `gh`: it keeps a pull
 * request's issue comments as state (list paginated with a Link header, post, edit, delete), and
 * answers the two GraphQL operations of `gh pr comment` (find the pull request, add a comment),
 * and keeps its reviews and their review threads (GraphQL `reviewThreads`, paginated, with
 * `viewerDidAuthor` and 👎 reactions, and `resolveReviewThread`; replies, reactions and
 * resolutions by people through the test's handle) and its reviews: a review whose comment names a line the configured diff does not show is
 * refused with 422, as the forge does, and the diff's files are listed (paginated) with patches.
 * A repository set with `setRepository` is served from real git (`fake-forge-repository.ts`): its
 * pull requests as JSON or diffs, compares, and contents at a ref, for the review context.
 * `gh` reaches it with GH_HOST=127.0.0.1:<port>, GH_ENTERPRISE_TOKEN and SSL_CERT_FILE naming
 * the self-signed certificate target-kit's `loopbackCertificate` makes with openssl.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { loopbackCertificate } from '@webhook-gateway/target-kit/testing';
import { z } from 'zod';
import { createFakeApp, type FakeApp, type FakeAppOptions } from './fake-forge-app.js';
import { createFakeForgeChecks, type FakeForgeChecks } from './fake-forge-checks.js';
import { createFakeRepositories, type FakePull } from './fake-forge-repository.js';

/** A comment's author as the forge shows it: who the call's token belongs to. */
interface FakeAuthor {
  login: string;
  type: 'User' | 'Bot';
}

interface FakeComment {
  id: number;
  body: string;
  user: FakeAuthor;
}

/** The account the fake's personal token belongs to. */
const FAKE_TOKEN_USER: FakeAuthor = { login: 'octo-person', type: 'User' };

const bodySchema = z.object({ body: z.string() });
const graphqlSchema = z.object({
  query: z.string(),
  variables: z.record(z.string(), z.unknown()).default({}),
});
const pullRequestVariables = z.object({
  owner: z.string(),
  repo: z.string(),
  pr_number: z.number(),
});
const addCommentVariables = z.object({
  input: z.object({ subjectId: z.string(), body: z.string() }),
});

/** A review as `POST /repos/{o}/{r}/pulls/{n}/reviews` takes it (only what the gateway sends). */
const reviewSchema = z.strictObject({
  event: z.literal('COMMENT'),
  commit_id: z.string().optional(),
  body: z.string().min(1),
  comments: z.array(
    z
      .strictObject({
        path: z.string(),
        // A multi-line comment: start_line before line, on the same side (as the forge wants).
        start_line: z.number().int().positive().optional(),
        start_side: z.literal('RIGHT').optional(),
        line: z.number().int().positive(),
        side: z.literal('RIGHT'),
        body: z.string().min(1),
      })
      .refine(
        (comment) =>
          (comment.start_line === undefined) === (comment.start_side === undefined) &&
          (comment.start_line === undefined || comment.start_line < comment.line),
        'start_line must precede line, with a start_side',
      ),
  ),
});

type FakeReview = z.infer<typeof reviewSchema> & { id: number };

/** One comment of a review thread, with the reactions people gave it. */
interface FakeThreadComment {
  id: number;
  body: string;
  user: FakeAuthor;
  reactions: { content: string; user: string }[];
}

/** A review thread: a review comment and the replies under it; resolved by whoever resolved it. */
interface FakeThread {
  /** `owner/repo#n:RT_<id>`: the GraphQL node id, which names its pull request. */
  id: string;
  path: string;
  line: number;
  isResolved: boolean;
  resolvedBy?: string;
  comments: FakeThreadComment[];
}

const threadsVariables = z.object({
  owner: z.string(),
  repo: z.string(),
  pr_number: z.number(),
  endCursor: z.string().nullish(),
});
const resolveVariables = z.object({ thread: z.string() });
const THREAD_PAGE_SIZE = 2;

/** One file of a pull request's diff: its patch as the forge lists it, and the lines it shows. */
interface FakeDiffFile {
  filename: string;
  patch: string;
  /** The new-file lines the patch shows (added and context): where a review comment may sit. */
  lines: number[];
}
const PAGE_SIZE = 2;

/** One request as the fake saw it. */
interface FakeRead {
  method: string;
  path: string;
  /** `?ref=abc` (empty without a query). */
  search: string;
  accept: string;
}

export interface FakeForgeApi {
  /** `127.0.0.1:<port>`, for GH_HOST. */
  host: string;
  /** The certificate file, for SSL_CERT_FILE. */
  certFile: string;
  token: string;
  /** Comments per `owner/repo#n`, oldest first. */
  comments(repo: string, number: number): FakeComment[];
  /** Deletes a comment as a person on the forge would. */
  remove(id: number): void;
  /** Reviews per `owner/repo#n`, oldest first. */
  reviews(repo: string, number: number): FakeReview[];
  /** Sets the diff of `owner/repo#n` (without one, every review comment is outside it). */
  setDiff(repo: string, number: number, files: FakeDiffFile[]): void;
  /** Review threads per `owner/repo#n`, oldest first (each posted review comment opens one). */
  threads(repo: string, number: number): FakeThread[];
  /** A person's reply in a thread (`/dismiss`, say). */
  reply(threadId: string, body: string, login?: string): void;
  /** A person's reaction (`THUMBS_DOWN`) on a thread's first comment. */
  react(threadId: string, content: string, login?: string): void;
  /** A person resolves a thread. */
  resolveAsPerson(threadId: string, login?: string): void;
  /** A person's own review comment, opening a thread (a forged marker in it, say). */
  personThread(
    repo: string,
    number: number,
    thread: { path: string; line: number; body: string },
  ): string;
  /** The next `count` GraphQL calls naming `operation` (`reviewThreads`, `resolveReviewThread`) answer errors. */
  failGraphql(operation: string, count: number): void;
  /** Every request, `METHOD /path`. */
  requests: string[];
  /** Every request with its query and `Accept` header, for tests of what was read and how. */
  reads: FakeRead[];
  /** Serves `owner/repo`'s pull requests, compares and contents from the git repository in `dir`. */
  setRepository(repo: string, dir: string): void;
  /** A pull request of a repository set with `setRepository`. */
  setPull(repo: string, pull: FakePull): void;
  /** The App's side, when started with `app`. */
  app: FakeApp | undefined;
  /** Check runs and commit statuses (`fake-forge-checks.ts`). */
  checks: FakeForgeChecks;
  /** `https://127.0.0.1:<port>/api/v3`: what `platforms.forge.api_url` names. */
  apiUrl: string;
  close(): Promise<void>;
}

/** The `owner/repo` a REST path or GraphQL call is about. */
function repositoryOf(url: URL, text: string): string | undefined {
  const rest = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\//.exec(url.pathname);
  if (rest) return rest[1];
  if (url.pathname !== '/api/graphql') return undefined;
  const { variables } = graphqlSchema.parse(JSON.parse(text));
  const pullRequest = pullRequestVariables.safeParse(variables);
  if (pullRequest.success) return `${pullRequest.data.owner}/${pullRequest.data.repo}`;
  const thread = resolveVariables.safeParse(variables);
  if (thread.success) return thread.data.thread.split('#')[0];
  const comment = addCommentVariables.safeParse(variables);
  return comment.success ? comment.data.input.subjectId.split('#')[0] : undefined;
}

/** The permissions of which one must be `write` for a call (reads need none beyond the scope). */
function permissionNeeded(method: string, pathname: string, text: string): string[] | undefined {
  if (pathname === '/api/graphql') {
    return text.includes('addComment(') || text.includes('resolveReviewThread(')
      ? ['pull_requests']
      : undefined;
  }
  if (method === 'GET') return undefined;
  if (pathname.includes('/check-runs')) return ['checks'];
  if (pathname.includes('/statuses/')) return ['statuses'];
  // Comments through the issues API, as the forge asks of an App: issues or pull requests.
  if (pathname.includes('/issues/')) return ['issues'];
  return ['pull_requests'];
}

export interface FakeForgeApiOptions {
  /** Makes the fake a forge the App is installed on. */
  app?: FakeAppOptions;
}

/** Starts the fake on a free port with a fresh self-signed certificate for 127.0.0.1. */
export async function startFakeForgeApi(options: FakeForgeApiOptions = {}): Promise<FakeForgeApi> {
  const app = options.app ? createFakeApp(options.app) : undefined;
  const certificate = loopbackCertificate();
  const token = 'fake-forge-token';
  const byPull = new Map<string, FakeComment[]>();
  const reviewsByPull = new Map<string, FakeReview[]>();
  const threadsByPull = new Map<string, FakeThread[]>();
  const graphqlFailures = new Map<string, number>();
  const threadList = (key: string): FakeThread[] => {
    let found = threadsByPull.get(key);
    if (!found) threadsByPull.set(key, (found = []));
    return found;
  };
  const findThread = (id: string): FakeThread | undefined =>
    threadList(id.split(':RT_')[0] ?? '').find((thread) => thread.id === id);
  const openThread = (key: string, path: string, line: number, body: string, user: FakeAuthor) => {
    const id = nextId++;
    const thread: FakeThread = {
      id: `${key}:RT_${id}`,
      path,
      line,
      isResolved: false,
      comments: [{ id, body, user, reactions: [] }],
    };
    threadList(key).push(thread);
    return thread;
  };
  /** True (and one failure used) when the next call of `operation` is to fail. */
  const failing = (operation: string): boolean => {
    const left = graphqlFailures.get(operation) ?? 0;
    if (left <= 0) return false;
    graphqlFailures.set(operation, left - 1);
    return true;
  };
  const diffs = new Map<string, FakeDiffFile[]>();
  const requests: string[] = [];
  const reads: FakeRead[] = [];
  const repositories = createFakeRepositories();
  let nextId = 1000;
  const checks = createFakeForgeChecks(() => nextId++);
  const list = (key: string): FakeComment[] => {
    let found = byPull.get(key);
    if (!found) byPull.set(key, (found = []));
    return found;
  };
  const findComment = (id: number): [FakeComment[], number] | undefined => {
    for (const comments of byPull.values()) {
      const index = comments.findIndex((c) => c.id === id);
      if (index >= 0) return [comments, index];
    }
    return undefined;
  };

  let forgeHost = '';
  const reviewList = (key: string): FakeReview[] => {
    let found = reviewsByPull.get(key);
    if (!found) reviewsByPull.set(key, (found = []));
    return found;
  };
  /** One page of `items` as the forge sends it, with a Link header to the next page. */
  const paged = <T>(req: IncomingMessage, url: URL, items: T[]) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    const slice = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const last = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
    const headers: Record<string, string> = {};
    if (page < last) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      headers.link = `<https://${req.headers.host ?? ''}${next.pathname}${next.search}>; rel="next"`;
    }
    return { slice, headers };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The port too: the App's html_url in the manifest conversion names the fake's page.
    const url = new URL(req.url ?? '/', `https://${forgeHost}`);
    requests.push(`${req.method ?? ''} ${url.pathname}`);
    reads.push({
      method: req.method ?? '',
      path: url.pathname,
      search: url.search,
      accept: req.headers.accept ?? '',
    });
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const method = req.method ?? '';
    if (app?.handle(method, url, text, req.headers.authorization, send)) return;
    let author = FAKE_TOKEN_USER;
    if (req.headers.authorization !== `token ${token}`) {
      // An installation token: live, and scoped to the repository the call is about.
      const grant = app?.grant(req.headers.authorization) ?? 'Bad credentials';
      if (typeof grant === 'string') return send(401, { message: grant });
      const repo = repositoryOf(url, text);
      if (repo === undefined || !grant.repositories.includes(repo)) {
        return send(404, { message: 'Not Found' });
      }
      const needs = permissionNeeded(method, url.pathname, text);
      if (needs && !needs.some((name) => grant.permissions[name] === 'write')) {
        return send(403, { message: 'Resource not accessible by integration' });
      }
      app?.tokenUses.push({
        request: `${method} ${url.pathname}`,
        repositories: grant.repositories,
      });
      author = { login: `${app?.slug ?? ''}[bot]`, type: 'Bot' };
    }
    if (checks.handle(method, url, text, send)) return;
    if (repositories.handle(req, url, res, paged)) return;
    if (url.pathname === '/api/graphql' && req.method === 'POST') {
      const { query, variables } = graphqlSchema.parse(JSON.parse(text));
      if (query.includes('reviewThreads(')) {
        if (failing('reviewThreads')) {
          return send(200, { errors: [{ message: 'Something went wrong reading threads' }] });
        }
        const { owner, repo, pr_number: number, endCursor } = threadsVariables.parse(variables);
        const all = threadList(`${owner}/${repo}#${number}`);
        const start = endCursor == null ? 0 : Number(endCursor);
        const end = start + THREAD_PAGE_SIZE;
        // viewerDidAuthor: whether the caller's account wrote the comment.
        const nodes = all.slice(start, end).map((thread) => ({
          id: thread.id,
          isResolved: thread.isResolved,
          comments: {
            nodes: thread.comments.map((comment) => ({
              body: comment.body,
              viewerDidAuthor: comment.user.login === author.login,
              reactions: {
                totalCount: comment.reactions.filter((r) => r.content === 'THUMBS_DOWN').length,
              },
            })),
          },
        }));
        const pageInfo = { hasNextPage: end < all.length, endCursor: String(end) };
        return send(200, {
          data: { repository: { pullRequest: { reviewThreads: { pageInfo, nodes } } } },
        });
      }
      if (query.includes('resolveReviewThread(')) {
        if (failing('resolveReviewThread')) {
          return send(200, { errors: [{ message: 'Something went wrong resolving' }] });
        }
        const thread = findThread(resolveVariables.parse(variables).thread);
        if (!thread) {
          return send(200, {
            errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a node' }],
          });
        }
        thread.isResolved = true;
        thread.resolvedBy = author.login;
        return send(200, {
          data: { resolveReviewThread: { thread: { id: thread.id, isResolved: true } } },
        });
      }
      // The pull request's node id is its comment list's key, so addComment finds it again.
      if (query.includes('pullRequest(number:')) {
        const { owner, repo, pr_number: number } = pullRequestVariables.parse(variables);
        const id = `${owner}/${repo}#${number}`;
        const pullRequest = {
          id,
          number,
          url: `https://${forgeHost}/${owner}/${repo}/pull/${number}`,
        };
        return send(200, { data: { repository: { pullRequest } } });
      }
      if (query.includes('addComment(')) {
        const { subjectId, body } = addCommentVariables.parse(variables).input;
        const comment = { id: nextId++, body, user: author };
        list(subjectId).push(comment);
        const node = { url: `https://${forgeHost}/${subjectId}#issuecomment-${comment.id}` };
        return send(200, { data: { addComment: { commentEdge: { node } } } });
      }
      return send(200, { errors: [{ message: 'the fake forge does not know this query' }] });
    }
    const pull = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const single = /^\/api\/v3\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url.pathname);
    const pullPart = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/(reviews|files)$/.exec(
      url.pathname,
    );
    if (pull && req.method === 'GET') {
      const { slice, headers } = paged(req, url, list(`${pull[1]}#${pull[2]}`));
      return send(200, slice, headers);
    }
    if (pullPart?.[3] === 'files' && req.method === 'GET') {
      const files = diffs.get(`${pullPart[1]}#${pullPart[2]}`) ?? [];
      const { slice, headers } = paged(
        req,
        url,
        files.map((file) => ({ filename: file.filename, status: 'modified', patch: file.patch })),
      );
      return send(200, slice, headers);
    }
    if (pullPart?.[3] === 'reviews' && req.method === 'POST') {
      const key = `${pullPart[1]}#${pullPart[2]}`;
      const parsed = reviewSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        return send(422, { message: 'Unprocessable Entity', errors: [parsed.error.message] });
      }
      const files = diffs.get(key) ?? [];
      const outside = parsed.data.comments.some(
        (comment) =>
          !files.some(
            (file) =>
              file.filename === comment.path &&
              file.lines.includes(comment.line) &&
              (comment.start_line === undefined || file.lines.includes(comment.start_line)),
          ),
      );
      if (outside) {
        return send(422, {
          message: 'Unprocessable Entity',
          errors: ['Pull request review thread line must be part of the diff'],
          status: '422',
        });
      }
      const review = { id: nextId++, ...parsed.data };
      reviewList(key).push(review);
      for (const comment of parsed.data.comments) {
        openThread(key, comment.path, comment.line, comment.body, author);
      }
      return send(200, { id: review.id, state: 'COMMENTED', body: review.body });
    }
    if (pull && req.method === 'POST') {
      const comment = { id: nextId++, body: bodySchema.parse(JSON.parse(text)).body, user: author };
      list(`${pull[1]}#${pull[2]}`).push(comment);
      return send(201, comment);
    }
    if (single) {
      const found = findComment(Number(single[1]));
      if (!found) return send(404, { message: 'Not Found' });
      const [comments, index] = found;
      if (req.method === 'PATCH') {
        const comment = comments[index];
        if (comment) comment.body = bodySchema.parse(JSON.parse(text)).body;
        return send(200, comment);
      }
      if (req.method === 'DELETE') {
        comments.splice(index, 1);
        res.writeHead(204).end();
        return;
      }
    }
    send(404, { message: 'Not Found' });
  };

  const server: Server = createServer(
    { key: certificate.key, cert: certificate.cert },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the fake forge has no port');
  forgeHost = `127.0.0.1:${address.port}`;
  return {
    host: `127.0.0.1:${address.port}`,
    certFile: certificate.certFile,
    token,
    comments: (repo, number) => list(`${repo}#${number}`),
    remove(id) {
      const found = findComment(id);
      if (found) found[0].splice(found[1], 1);
    },
    reviews: (repo, number) => reviewList(`${repo}#${number}`),
    threads: (repo, number) => threadList(`${repo}#${number}`),
    reply(threadId, body, login = 'octo-reviewer') {
      findThread(threadId)?.comments.push({
        id: nextId++,
        body,
        user: { login, type: 'User' },
        reactions: [],
      });
    },
    react(threadId, content, login = 'octo-reviewer') {
      findThread(threadId)?.comments[0]?.reactions.push({ content, user: login });
    },
    resolveAsPerson(threadId, login = 'octo-reviewer') {
      const thread = findThread(threadId);
      if (thread) Object.assign(thread, { isResolved: true, resolvedBy: login });
    },
    personThread(repo, number, { path, line, body }) {
      return openThread(`${repo}#${number}`, path, line, body, {
        login: 'octo-reviewer',
        type: 'User',
      }).id;
    },
    failGraphql(operation, count) {
      graphqlFailures.set(operation, count);
    },
    setDiff(repo, number, files) {
      diffs.set(`${repo}#${number}`, files);
    },
    requests,
    reads,
    setRepository: (repo, dir) => repositories.setRepository(repo, dir),
    setPull: (repo, pull) => repositories.setPull(repo, pull),
    app,
    checks,
    apiUrl: `https://127.0.0.1:${address.port}/api/v3`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      certificate.remove();
    },
  };
}
