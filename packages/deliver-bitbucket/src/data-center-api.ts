/**
 * The Bitbucket Data Center (Server) REST API calls the targets make, under `/rest/api/1.0` with
 * `Authorization: Bearer <HTTP access token>`: a pull request's comments (listed through its
 * activities, each thread's replies nested in its first comment's `comments`; created, anchored on
 * a line, read, edited, resolved and deleted with the `version` Data Center checks), the pull
 * request itself, its raw diff and the raw diff between two commits, a file at
 * a commit, and a commit's build status (the repository's `…/commits/{id}/builds`; the older
 * `/rest/build-status/1.0` is deprecated since 7.14). Each call goes through
 * `rest-client.ts`. Every body the gateway writes has its hidden markers written the Bitbucket
 * way (`hideMarkers`): Data Center escapes HTML in Markdown too.
 */
import { z } from 'zod';
import { hideMarkers } from './markers.js';
import type { BuildStatus } from './pull-request-calls.js';
import {
  bitbucketCall,
  isNotFound,
  type BitbucketCallContext,
  type BitbucketDialect,
} from './rest-client.js';

/** Pages followed at most (a runaway `nextPageStart` stops here). */
const MAX_PAGES = 100;
/** Activities asked for per page (Data Center's default is 25). */
const PAGE_LIMIT = 100;
/** What the raw resources (a diff, a file) are asked for in: they answer no JSON. */
const RAW = 'text/plain, */*';

/** Data Center: its refusals say `{ errors: [{ message }] }`. */
const DATA_CENTER: BitbucketDialect = {
  service: 'Bitbucket Data Center',
  tokenKey: 'platforms.bitbucket.data_center.token',
  message(body) {
    const parsed = z
      .object({ errors: z.array(z.object({ message: z.string().min(1) })).min(1) })
      .safeParse(body);
    return parsed.success ? parsed.data.errors.map((error) => error.message).join('; ') : undefined;
  },
};

const commentSchema = z.object({
  id: z.number(),
  version: z.number(),
  text: z.string(),
  author: z.object({ name: z.string().nullish(), slug: z.string().nullish() }).nullish(),
  anchor: z.unknown().optional(),
  /** `RESOLVED` once its thread (or, for a `BLOCKER`, its task) is resolved. */
  state: z.string().nullish(),
  /** Whether its thread is resolved (Data Center 8 and later say it beside `state`). */
  threadResolved: z.boolean().nullish(),
  /** Its replies, each with theirs. */
  get comments() {
    return z.array(commentSchema).nullish();
  },
});
export type DataCenterComment = z.infer<typeof commentSchema>;

/** An activity that is a comment; any other shape (approvals, rescopes, plugins') is not one. */
const commentActivitySchema = z.object({
  action: z.literal('COMMENTED'),
  commentAction: z.string().optional(),
  comment: commentSchema,
  commentAnchor: z.unknown().optional(),
});

const pageSchema = z.object({
  values: z.array(z.unknown()),
  isLastPage: z.boolean(),
  nextPageStart: z.number().nullish(),
});

/** A thread's first comment, and whether it is on a line. */
interface DataCenterThread {
  comment: DataCenterComment;
  onLine: boolean;
}

/** A line comment's place, as `anchor` takes it. */
export interface DataCenterAnchor {
  path: string;
  line: number;
  lineType: 'ADDED' | 'CONTEXT';
  fileType: 'TO';
  /** The pull request's diff as it shows now. */
  diffType: 'EFFECTIVE';
}

/** `PROJECT/repo_slug` as `/projects/{key}/repos/{slug}`. */
function repoPath(repo: string): string {
  const [project = '', slug = ''] = repo.split('/');
  return `/projects/${encodeURIComponent(project)}/repos/${encodeURIComponent(slug)}`;
}

/** The calls, bound to one connection and delivery. */
export function dataCenterApi(context: BitbucketCallContext) {
  const call = bitbucketCall(context, DATA_CENTER);
  const pull = (repo: string, id: number) => `${repoPath(repo)}/pull-requests/${id}`;
  const comments = (repo: string, id: number) => `${pull(repo, id)}/comments`;

  /**
   * The first comment of each thread on the pull request, on a line or not, its replies nested:
   * read from its activities, page by page, since Data Center lists comments only per file.
   */
  async function threads(repo: string, id: number): Promise<DataCenterThread[]> {
    const path = `${pull(repo, id)}/activities`;
    const found = new Map<number, DataCenterThread>();
    const deleted = new Set<number>();
    let start: number | undefined = 0;
    for (let page = 0; start !== undefined && page < MAX_PAGES; page++) {
      const answer = await call('GET', `${path}?start=${start}&limit=${PAGE_LIMIT}`);
      const { values, isLastPage, nextPageStart } = pageSchema.parse(answer.body);
      for (const value of values) {
        const activity = commentActivitySchema.safeParse(value);
        if (!activity.success) continue;
        const { comment, commentAction, commentAnchor } = activity.data;
        if (commentAction === 'DELETED') deleted.add(comment.id);
        // A reply's own activity: the reply is nested in its thread's first comment too.
        if (commentAction === 'REPLIED') continue;
        // An edit may be its own activity: the newest version counts.
        const known = found.get(comment.id);
        if (!known || known.comment.version < comment.version) {
          const onLine = commentAnchor !== undefined || comment.anchor !== undefined;
          found.set(comment.id, { comment, onLine });
        }
      }
      start = isLastPage || nextPageStart == null ? undefined : nextPageStart;
    }
    return [...found.values()]
      .filter(({ comment }) => !deleted.has(comment.id))
      .sort((a, b) => a.comment.id - b.comment.id);
  }

  return {
    /** The pull request's general comments (not on a line, not replies), oldest first. */
    async listComments(repo: string, id: number): Promise<DataCenterComment[]> {
      return (await threads(repo, id)).filter((t) => !t.onLine).map((t) => t.comment);
    },
    /** The first comments of the pull request's threads on lines, oldest first, replies nested. */
    async listLineThreads(repo: string, id: number): Promise<DataCenterComment[]> {
      return (await threads(repo, id)).filter((t) => t.onLine).map((t) => t.comment);
    },
    /** A comment on the pull request, or with `anchor` on a line of its diff: its id and version. */
    async postComment(
      repo: string,
      id: number,
      text: string,
      anchor?: DataCenterAnchor,
    ): Promise<DataCenterComment> {
      const body = { text: hideMarkers(text), ...(anchor ? { anchor } : {}) };
      return commentSchema.parse((await call('POST', comments(repo, id), body)).body);
    },
    async comment(repo: string, id: number, commentId: string): Promise<DataCenterComment> {
      const answer = await call('GET', `${comments(repo, id)}/${encodeURIComponent(commentId)}`);
      return commentSchema.parse(answer.body);
    },
    /** Edits the comment at `version`; a stale version is a `409`. The new version. */
    async editComment(
      repo: string,
      id: number,
      commentId: string,
      text: string,
      version: number,
    ): Promise<number> {
      const answer = await call('PUT', `${comments(repo, id)}/${encodeURIComponent(commentId)}`, {
        text: hideMarkers(text),
        version,
      });
      return commentSchema.parse(answer.body).version;
    },
    /**
     * Resolves the thread the comment starts (`PUT …/comments/{id}` with `state: RESOLVED` at its
     * `version`; a stale version is a `409`).
     */
    async resolveComment(repo: string, id: number, commentId: string, version: number) {
      await call('PUT', `${comments(repo, id)}/${encodeURIComponent(commentId)}`, {
        state: 'RESOLVED',
        version,
      });
    },
    async deleteComment(repo: string, id: number, commentId: string, version: number) {
      await call(
        'DELETE',
        `${comments(repo, id)}/${encodeURIComponent(commentId)}?version=${version}`,
      );
    },
    /** The pull request's raw unified diff (`GET …/pull-requests/{id}.diff`). */
    async pullRequestDiff(repo: string, id: number): Promise<string> {
      return (await call('GET', `${pull(repo, id)}.diff`, undefined, { accept: RAW })).text;
    },
    /** The pull request as `GET …/pull-requests/{id}` answers it (unvalidated: the caller parses). */
    async pullRequest(repo: string, id: number): Promise<unknown> {
      return (await call('GET', pull(repo, id))).body;
    },
    /** The raw diff from `since` to `until` (`GET …/diff?since=…&until=…`). */
    async commitsDiff(repo: string, since: string, until: string): Promise<string> {
      const query = `since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
      return (await call('GET', `${repoPath(repo)}/diff?${query}`, undefined, { accept: RAW }))
        .text;
    },
    /** The file `path` at `commit` (`GET …/raw/{path}?at=…`), undefined when it is not there. */
    async fileAt(repo: string, commit: string, path: string): Promise<string | undefined> {
      const file = path.split('/').map(encodeURIComponent).join('/');
      const at = `?at=${encodeURIComponent(commit)}`;
      try {
        return (await call('GET', `${repoPath(repo)}/raw/${file}${at}`, undefined, { accept: RAW }))
          .text;
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async postBuildStatus(repo: string, commit: string, status: BuildStatus): Promise<void> {
      await call('POST', `${repoPath(repo)}/commits/${encodeURIComponent(commit)}/builds`, status);
    },
  };
}

export type DataCenterApi = ReturnType<typeof dataCenterApi>;
