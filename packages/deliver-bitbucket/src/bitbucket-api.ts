/**
 * The Bitbucket Cloud REST API calls the targets make, under `/2.0` with
 * `Authorization: Bearer …`: a pull request's comments (list, create, inline, edit, delete,
 * resolve), the pull request itself, its diff and the diff between two commits, a file at a commit, and a
 * commit's build status. Each call goes through `rest-client.ts` (429s waited out, a failure a
 * `BitbucketApiError` that never shows the token). Every body the gateway writes has its hidden
 * markers written the Bitbucket way (`hideMarkers`).
 */
import { z } from 'zod';
import { hideMarkers } from './markers.js';
import {
  BitbucketApiError,
  bitbucketCall,
  isNotFound,
  sameOrigin,
  type BitbucketCallContext,
  type BitbucketDialect,
} from './rest-client.js';

/** Pages followed at most (a runaway `next` stops here). */
const MAX_PAGES = 100;

const commentSchema = z.object({
  id: z.number(),
  content: z.object({ raw: z.string() }),
  user: z
    .object({
      uuid: z.string().optional(),
      account_id: z.string().nullish(),
      nickname: z.string().nullish(),
    })
    .nullish(),
  deleted: z.boolean().optional(),
  /** A reply's parent comment (a reply to a reply names the reply). */
  parent: z.object({ id: z.number() }).nullish(),
  inline: z.object({ path: z.string() }).nullish(),
  /** Set while the thread this top-level comment starts is resolved. */
  resolution: z.object({ type: z.string() }).nullish(),
});
export type BitbucketComment = z.infer<typeof commentSchema>;

const pageSchema = z.object({ values: z.array(commentSchema), next: z.string().optional() });
const createdSchema = z.object({ id: z.number() });

/** A build status as `POST …/commit/{node}/statuses/build` takes it. */
export interface BitbucketBuildStatus {
  key: string;
  state: 'SUCCESSFUL' | 'FAILED' | 'INPROGRESS' | 'STOPPED';
  name: string;
  url: string;
  description: string;
}

/** `workspace/repo_slug` as two escaped path segments. */
function repoPath(repo: string): string {
  return repo
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/** Bitbucket Cloud: its refusals say `{ error: { message } }`. */
const CLOUD: BitbucketDialect = {
  service: 'Bitbucket',
  tokenKey: 'platforms.bitbucket.token',
  message(body) {
    const parsed = z.object({ error: z.object({ message: z.string().min(1) }) }).safeParse(body);
    return parsed.success ? parsed.data.error.message : undefined;
  },
};

/** The calls, bound to one connection and delivery. */
export function bitbucketApi(context: BitbucketCallContext) {
  const { connection } = context;
  const call = bitbucketCall(context, CLOUD);

  const comments = (repo: string, id: number) =>
    `/repositories/${repoPath(repo)}/pullrequests/${id}/comments`;

  return {
    /** Every comment on the pull request not deleted, oldest first, across pages. */
    async listComments(repo: string, id: number): Promise<BitbucketComment[]> {
      const path = comments(repo, id);
      const found: BitbucketComment[] = [];
      let url: string | undefined = `${connection.apiBase}${path}`;
      for (let page = 0; url !== undefined && page < MAX_PAGES; page++) {
        const { values, next } = pageSchema.parse(
          (await call('GET', path, undefined, { url })).body,
        );
        found.push(...values.filter((comment) => comment.deleted !== true));
        url = next !== undefined && sameOrigin(next, connection.apiBase) ? next : undefined;
      }
      return found;
    },
    /** A comment on the pull request, or with `inline` on a line of the new file. */
    async postComment(
      repo: string,
      id: number,
      raw: string,
      inline?: { path: string; to: number },
    ): Promise<number> {
      const answer = await call('POST', comments(repo, id), {
        content: { raw: hideMarkers(raw) },
        ...(inline ? { inline } : {}),
      });
      return createdSchema.parse(answer.body).id;
    },
    async editComment(repo: string, id: number, commentId: string, raw: string): Promise<void> {
      await call('PUT', `${comments(repo, id)}/${commentId}`, {
        content: { raw: hideMarkers(raw) },
      });
    },
    async deleteComment(repo: string, id: number, commentId: string): Promise<void> {
      await call('DELETE', `${comments(repo, id)}/${commentId}`);
    },
    /**
     * Resolves the thread a top-level inline comment starts
     * (`POST …/comments/{comment_id}/resolve`); one already resolved (409) is left as it is.
     */
    async resolveComment(repo: string, id: number, commentId: string): Promise<void> {
      try {
        await call('POST', `${comments(repo, id)}/${commentId}/resolve`);
      } catch (error) {
        if (error instanceof BitbucketApiError && error.status === 409) return;
        throw error;
      }
    },
    /** The pull request's unified diff (`GET …/pullrequests/{id}/diff`, redirect followed). */
    async pullRequestDiff(repo: string, id: number): Promise<string> {
      const answer = await call('GET', `/repositories/${repoPath(repo)}/pullrequests/${id}/diff`);
      return typeof answer.body === 'string' ? answer.body : '';
    },
    /** The pull request as `GET …/pullrequests/{id}` answers it (unvalidated: the caller parses). */
    async pullRequest(repo: string, id: number): Promise<unknown> {
      return (await call('GET', `/repositories/${repoPath(repo)}/pullrequests/${id}`)).body;
    },
    /**
     * The diff of `source` against `destination` (`GET …/diff/{source}..{destination}`): what
     * `source` changed since the two met, as Bitbucket reads a two-commit spec.
     */
    async commitsDiff(repo: string, source: string, destination: string): Promise<string> {
      const spec = `${encodeURIComponent(source)}..${encodeURIComponent(destination)}`;
      const answer = await call('GET', `/repositories/${repoPath(repo)}/diff/${spec}`);
      return typeof answer.body === 'string' ? answer.body : '';
    },
    /** The file `path` at `commit` (`GET …/src/{commit}/{path}`), undefined when it is not there. */
    async fileAt(repo: string, commit: string, path: string): Promise<string | undefined> {
      const file = path.split('/').map(encodeURIComponent).join('/');
      try {
        const answer = await call(
          'GET',
          `/repositories/${repoPath(repo)}/src/${encodeURIComponent(commit)}/${file}`,
        );
        return answer.text;
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async postBuildStatus(repo: string, commit: string, status: BitbucketBuildStatus) {
      const node = encodeURIComponent(commit);
      await call('POST', `/repositories/${repoPath(repo)}/commit/${node}/statuses/build`, status);
    },
  };
}

export type BitbucketApi = ReturnType<typeof bitbucketApi>;
