/**
 * A fake Gitea for tests: a real HTTPS server on 127.0.0.1 (a self-signed certificate that this
 * process, the in-process gateway under test, trusts while the fake runs) that speaks the part of
 * `/api/v1` the targets use, as Gitea documents it, and keeps what they write as state: issue comments
 * (list, create, edit, delete), pull request reviews with their line comments, commit statuses,
 * the token's user, a user's permission on a repository, and each pull request's diff. Each
 * review's line comments are kept as review comments too (listed per review, with the `resolver`
 * of a resolved conversation); with `resolveApi` (Gitea with go-gitea/gitea #36441)
 * `POST …/pulls/{n}/comments/{id}/resolve` resolves one, without it that endpoint is a 404 as on
 * Forgejo. A pull request backed by a real git repository also answers `GET …/pulls/{n}` (its base and head) and
 * `GET …/raw/{path}?ref=` (files at a commit), and its diff is git's. A wrong token gets 401, an unknown repository
 * or pull request 404, a body without its required fields 422.
 */
import {
  diffBetween,
  fileAt,
  startFakeHttpsService,
  trustCertificate,
  type FakeAnswer,
  type FakeHttpsService,
  type ReceivedRequest,
} from '@webhook-gateway/target-kit/testing';

interface FakeComment {
  id: number;
  /** `owner/repo#index`. */
  issue: string;
  body: string;
  user: { login: string };
}

interface FakeReview {
  id: number;
  /** `owner/repo#index`. */
  pull: string;
  event: string;
  body: string;
  commit_id?: string;
  comments: { path: string; new_position: number; body: string }[];
}

/** A line comment of a review, as `GET …/pulls/{n}/reviews/{id}/comments` lists it. */
interface FakeReviewComment {
  id: number;
  /** `owner/repo#index`. */
  pull: string;
  reviewId: number;
  path: string;
  position: number;
  body: string;
  user: { login: string };
  /** Who resolved the conversation (set on its first comment). */
  resolver: { login: string } | null;
}

interface FakeStatus {
  repo: string;
  sha: string;
  state: string;
  context: string;
  description: string;
}

export interface FakeGitea {
  /** `https://127.0.0.1:<port>`: `platforms.gitea.base_url`. */
  url: string;
  /** Its certificate (PEM), for `NODE_EXTRA_CA_CERTS` of a gateway started as a process. */
  certFile: string;
  comments: FakeComment[];
  reviews: FakeReview[];
  statuses: FakeStatus[];
  /** Every review's line comments, in order. */
  reviewComments: FakeReviewComment[];
  /** Every request, in order. */
  requests: ReceivedRequest[];
  /** A comment someone else wrote. */
  addComment(issue: string, body: string, login: string): FakeComment;
  /** A person's reply in the conversation of review comment `id` (their own review, same line). */
  replyToReviewComment(id: number, body: string, login: string): FakeReviewComment;
  /** A person resolves the conversation of review comment `id`. */
  resolveConversation(id: number, login: string): void;
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

/** A pull request read from a git repository: its diff is `git diff base...head`. */
interface FakeGitPull {
  gitDir: string;
  base: string;
  head: string;
  title: string;
}

export interface FakeGiteaOptions {
  token: string;
  /** The token's account. */
  login: string;
  /** The pull requests it knows, `owner/repo#index`, with their unified diff or repository. */
  pulls: Record<string, { diff: string } | FakeGitPull>;
  /** Whether review comments can be resolved over the API (Gitea with #36441; not Forgejo). */
  resolveApi?: boolean;
  /** The users it knows and their permission on every repository (`read`, `write`, `admin`…). */
  permissions?: Record<string, string>;
  /** Whether the token's account administers the repositories (default true): else 403 on others' permission. */
  tokenIsAdmin?: boolean;
}

const REVIEW_EVENTS = new Set(['APPROVED', 'REQUEST_CHANGES', 'COMMENT', 'PENDING']);
const STATUS_STATES = new Set(['pending', 'success', 'error', 'failure', 'warning']);

function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const invalid = (message: string): FakeAnswer => ({ status: 422, body: { message, url: '' } });
const notFound: FakeAnswer = {
  status: 404,
  body: { message: "The target couldn't be found.", url: '' },
};

export async function startFakeGitea(options: FakeGiteaOptions): Promise<FakeGitea> {
  const comments: FakeComment[] = [];
  const reviews: FakeReview[] = [];
  const statuses: FakeStatus[] = [];
  const reviewComments: FakeReviewComment[] = [];
  const failures: { matches: (r: ReceivedRequest) => boolean; answer: FakeAnswer; left: number }[] =
    [];
  let nextId = 100;
  const repos = new Set(Object.keys(options.pulls).map((key) => key.split('#')[0]));
  const user = { login: options.login };
  const diffOf = (pull: { diff: string } | FakeGitPull): string =>
    'diff' in pull ? pull.diff : diffBetween(pull.gitDir, pull.base, pull.head);
  /** The repository's git-backed pull request (its files are that repository's). */
  const gitPullOf = (repo: string): FakeGitPull | undefined =>
    Object.entries(options.pulls)
      .filter(([key]) => key.startsWith(`${repo}#`))
      .map(([, pull]) => pull)
      .find((pull): pull is FakeGitPull => 'gitDir' in pull);

  const commentJson = (comment: FakeComment) => ({
    id: comment.id,
    body: comment.body,
    user: { id: 1, login: comment.user.login },
    html_url: '',
    created_at: '2026-01-01T00:00:00Z',
  });

  const reviewCommentJson = (comment: FakeReviewComment) => ({
    id: comment.id,
    body: comment.body,
    user: { id: 1, login: comment.user.login },
    resolver: comment.resolver ? { id: 2, login: comment.resolver.login } : null,
    pull_request_review_id: comment.reviewId,
    path: comment.path,
    position: comment.position,
    original_position: 0,
    commit_id: '',
    diff_hunk: '',
  });
  const reviewJson = (review: FakeReview, login: string) => ({
    id: review.id,
    body: review.body,
    state: review.event,
    user: { id: 1, login },
    commit_id: review.commit_id ?? '',
    comments_count: reviewComments.filter((c) => c.reviewId === review.id).length,
  });
  /** The reviews' authors: the token's account, or the person who replied. */
  const reviewAuthors = new Map<number, string>();

  const routes: [string, RegExp, (m: RegExpExecArray, r: ReceivedRequest) => FakeAnswer][] = [
    ['GET', /^\/api\/v1\/user$/, () => ({ status: 200, body: { id: 1, login: options.login } })],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/collaborators\/([^/]+)\/permission$/,
      (m) => {
        if (!repos.has(m[1] ?? '')) return notFound;
        const login = decodeURIComponent(m[2] ?? '');
        // As Gitea: only an administrator may read another user's permission.
        if (options.tokenIsAdmin === false && login !== options.login) {
          return {
            status: 403,
            body: {
              message:
                'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
              url: '',
            },
          };
        }
        const permission = options.permissions?.[login];
        if (permission === undefined) return notFound;
        return {
          status: 200,
          body: { permission, role_name: permission, user: { id: 7, login } },
        };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/,
      (m) => {
        const issue = `${m[1]}#${m[2]}`;
        if (!(issue in options.pulls)) return notFound;
        return { status: 200, body: comments.filter((c) => c.issue === issue).map(commentJson) };
      },
    ],
    [
      'POST',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/,
      (m, r) => {
        const issue = `${m[1]}#${m[2]}`;
        if (!(issue in options.pulls)) return notFound;
        const body = object(r.json)?.body;
        if (typeof body !== 'string' || body === '') return invalid('[Body]: Required');
        const comment = { id: nextId++, issue, body, user };
        comments.push(comment);
        return { status: 201, body: commentJson(comment) };
      },
    ],
    [
      'PATCH',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/,
      (m, r) => {
        const comment = comments.find(
          (c) => c.id === Number(m[2]) && c.issue.startsWith(`${m[1]}#`),
        );
        if (!comment) return notFound;
        const body = object(r.json)?.body;
        if (typeof body !== 'string' || body === '') return invalid('[Body]: Required');
        comment.body = body;
        return { status: 200, body: commentJson(comment) };
      },
    ],
    [
      'DELETE',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/,
      (m) => {
        const index = comments.findIndex(
          (c) => c.id === Number(m[2]) && c.issue.startsWith(`${m[1]}#`),
        );
        if (index < 0) return notFound;
        comments.splice(index, 1);
        return { status: 204, body: '' };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\.diff$/,
      (m) => {
        const pull = options.pulls[`${m[1]}#${m[2]}`];
        return pull
          ? { status: 200, body: diffOf(pull), headers: { 'content-type': 'text/plain' } }
          : notFound;
      },
    ],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/,
      (m) => {
        const pull = options.pulls[`${m[1]}#${m[2]}`];
        if (!pull || !('gitDir' in pull)) return notFound;
        return {
          status: 200,
          body: {
            number: Number(m[2]),
            title: pull.title,
            draft: false,
            user: { id: 2, login: 'author' },
            labels: [],
            base: { ref: 'main', sha: pull.base },
            head: { ref: 'feature', sha: pull.head },
          },
        };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/raw\/(.+)$/,
      (m, r) => {
        const pull = gitPullOf(m[1] ?? '');
        const ref = new URL(r.url, 'http://fake').searchParams.get('ref');
        if (!pull || ref === null) return notFound;
        const text = fileAt(pull.gitDir, ref, decodeURIComponent(m[2] ?? ''));
        return text === undefined
          ? notFound
          : { status: 200, body: text, headers: { 'content-type': 'text/plain; charset=utf-8' } };
      },
    ],
    [
      'POST',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/reviews$/,
      (m, r) => {
        const pull = `${m[1]}#${m[2]}`;
        if (!(pull in options.pulls)) return notFound;
        const json = object(r.json) ?? {};
        const event = typeof json.event === 'string' ? json.event : 'PENDING';
        if (!REVIEW_EVENTS.has(event)) return invalid(`unknown review event: ${event}`);
        const lineComments = Array.isArray(json.comments) ? json.comments.map(object) : [];
        const valid = lineComments.every(
          (c) =>
            c &&
            typeof c.path === 'string' &&
            typeof c.body === 'string' &&
            typeof c.new_position === 'number',
        );
        if (!valid) return invalid('[Comments]: each needs path, body and new_position');
        const review: FakeReview = {
          id: nextId++,
          pull,
          event,
          body: typeof json.body === 'string' ? json.body : '',
          ...(typeof json.commit_id === 'string' ? { commit_id: json.commit_id } : {}),
          comments: lineComments as FakeReview['comments'],
        };
        reviews.push(review);
        reviewAuthors.set(review.id, options.login);
        for (const comment of review.comments) {
          reviewComments.push({
            id: nextId++,
            pull,
            reviewId: review.id,
            path: comment.path,
            position: comment.new_position,
            body: comment.body,
            user,
            resolver: null,
          });
        }
        return { status: 200, body: reviewJson(review, options.login) };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/reviews$/,
      (m) => {
        const pull = `${m[1]}#${m[2]}`;
        if (!(pull in options.pulls)) return notFound;
        const found = reviews.filter((review) => review.pull === pull);
        return {
          status: 200,
          body: found.map((review) => reviewJson(review, reviewAuthors.get(review.id) ?? '')),
        };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/,
      (m) => {
        const pull = `${m[1]}#${m[2]}`;
        const review = reviews.find((r) => r.pull === pull && r.id === Number(m[3]));
        if (!review) return notFound;
        const found = reviewComments.filter((c) => c.reviewId === review.id);
        return { status: 200, body: found.map(reviewCommentJson) };
      },
    ],
    [
      'POST',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/comments\/(\d+)\/resolve$/,
      (m) => {
        if (options.resolveApi !== true) return notFound;
        const comment = reviewComments.find(
          (c) => c.pull === `${m[1]}#${m[2]}` && c.id === Number(m[3]),
        );
        if (!comment) return notFound;
        comment.resolver = user;
        return { status: 200, body: reviewCommentJson(comment) };
      },
    ],
    [
      'POST',
      /^\/api\/v1\/repos\/([^/]+\/[^/]+)\/statuses\/([0-9a-f]+)$/,
      (m, r) => {
        if (!repos.has(m[1] ?? '')) return notFound;
        const json = object(r.json) ?? {};
        if (typeof json.state !== 'string' || !STATUS_STATES.has(json.state))
          return invalid('[State]: invalid');
        const status: FakeStatus = {
          repo: m[1] ?? '',
          sha: m[2] ?? '',
          state: json.state,
          context: typeof json.context === 'string' ? json.context : 'default',
          description: typeof json.description === 'string' ? json.description : '',
        };
        statuses.push(status);
        return { status: 201, body: { id: nextId++, ...status } };
      },
    ],
  ];

  const service: FakeHttpsService = await startFakeHttpsService((request) => {
    const failure = failures.find((f) => f.left > 0 && f.matches(request));
    if (failure) {
      failure.left--;
      return failure.answer;
    }
    if (request.headers.authorization !== `token ${options.token}`) {
      return { status: 401, body: { message: 'token is required', url: '' } };
    }
    const path = request.url.split('?')[0] ?? '';
    for (const [method, pattern, handle] of routes) {
      const match = pattern.exec(path);
      if (match && method === request.method) return handle(match, request);
    }
    return notFound;
  });
  const untrust = trustCertificate(service.certFile);

  return {
    url: service.url,
    certFile: service.certFile,
    comments,
    reviews,
    statuses,
    reviewComments,
    requests: service.requests,
    addComment(issue, body, login) {
      const comment = { id: nextId++, issue, body, user: { login } };
      comments.push(comment);
      return comment;
    },
    replyToReviewComment(id, body, login) {
      const first = reviewComments.find((c) => c.id === id);
      if (!first) throw new Error(`no review comment ${id}`);
      const review: FakeReview = {
        id: nextId++,
        pull: first.pull,
        event: 'COMMENT',
        body: '',
        comments: [{ path: first.path, new_position: first.position, body }],
      };
      reviews.push(review);
      reviewAuthors.set(review.id, login);
      const reply: FakeReviewComment = {
        ...first,
        id: nextId++,
        reviewId: review.id,
        body,
        user: { login },
        resolver: null,
      };
      reviewComments.push(reply);
      return reply;
    },
    resolveConversation(id, login) {
      const first = reviewComments.find((c) => c.id === id);
      if (!first) throw new Error(`no review comment ${id}`);
      first.resolver = { login };
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
