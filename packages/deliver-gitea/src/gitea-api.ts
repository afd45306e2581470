/**
 * The Gitea (and Forgejo) REST API calls the targets make, under `/api/v1` with
 * `Authorization: token …`: issue comments, a pull request, its diff and files of a commit (the
 * review context), reviews and their line comments (read, resolved), commit statuses, a
 * commenter's permission and the token's own account. Each call waits out 429s (target-kit's `callRest`); any other failure throws a
 * `GiteaApiError` that says what to fix and never shows the token.
 */
import type { Logger } from '@webhook-gateway/core';
import {
  bodyExcerpt,
  callTokenRest,
  redact,
  serverErrorReason,
  type HttpTargetOptions,
  type ServiceAnswer,
  type ServiceRequest,
} from '@webhook-gateway/target-kit';
import { z } from 'zod';
import type { GiteaConnection } from './settings.js';

const SERVICE = 'Gitea';
/** Pages followed at most when Gitea links a next page (a runaway `Link` header stops here). */
const MAX_PAGES = 100;

/** A failed call: the HTTP status, for callers that read one (a 404 on a deleted comment). */
export class GiteaApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'GiteaApiError';
    this.status = status;
  }
}

const commentSchema = z.object({
  id: z.number(),
  body: z.string(),
  user: z.object({ login: z.string() }).nullish(),
});
export type GiteaComment = z.infer<typeof commentSchema>;

const userSchema = z.object({ login: z.string().min(1) });
const reviewSchema = z.object({ id: z.number() });
/** A review's line comment (`PullReviewComment`): `resolver` is set on a resolved conversation's first. */
const reviewCommentSchema = z.object({
  id: z.number(),
  body: z.string(),
  user: z.object({ login: z.string() }).nullish(),
  resolver: z.object({ login: z.string() }).nullish(),
  path: z.string(),
  position: z.number().nullish(),
  original_position: z.number().nullish(),
});
export type GiteaReviewComment = z.infer<typeof reviewCommentSchema>;
const permissionSchema = z.object({ permission: z.string() });
const createdSchema = z.object({ id: z.number() });

/** A review as `POST /repos/{owner}/{repo}/pulls/{index}/reviews` takes it. */
export interface GiteaReview {
  event: 'COMMENT';
  body: string;
  commit_id?: string;
  comments: { path: string; new_position: number; body: string }[];
}

/** A commit status as `POST /repos/{owner}/{repo}/statuses/{sha}` takes it. */
export interface GiteaStatus {
  state: 'pending' | 'success' | 'error' | 'failure' | 'warning';
  context: string;
  description: string;
  target_url?: string;
}

export interface GiteaCallContext {
  connection: GiteaConnection;
  options: HttpTargetOptions;
  signal: AbortSignal;
  log: Logger;
  /** The target, first in every error (`gitea_comment`). */
  target: string;
}

/** `owner/repo` as two escaped path segments. */
function repoPath(repo: string): string {
  return repo
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/** `a/b/c d.md` → `a/b/c%20d.md`: each segment encoded, the slashes kept. */
function filePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Gitea's own words for a refusal (`{ message }`), else a short excerpt of the body. */
function giteaMessage(body: unknown): string {
  const parsed = z.object({ message: z.string().min(1) }).safeParse(body);
  return parsed.success ? parsed.data.message : bodyExcerpt(body);
}

/** What to do about a status, said after Gitea's words. */
function hint(status: number): string {
  if (status === 401) return ' (check platforms.gitea.token)';
  if (status === 403)
    return " (the token's account may not write there: give it access to the repository)";
  if (status === 404) {
    return " (check the route's deliver_extra.repo and pr_number, and that the token can see the repository)";
  }
  return '';
}

/** The `rel="next"` address of a `Link` header, when it is on the API's own origin. */
function nextPage(answer: ServiceAnswer, apiBase: string): string | undefined {
  const link = answer.headers.get('link');
  const next = link
    ?.split(',')
    .map((part) => /<([^>]+)>\s*;\s*rel="?next"?/.exec(part)?.[1])
    .find((url) => url !== undefined);
  // The token goes only where it was configured to.
  return next !== undefined && new URL(next).origin === new URL(apiBase).origin ? next : undefined;
}

/** The calls, bound to one connection and delivery. */
export function giteaApi(context: GiteaCallContext) {
  const { connection } = context;
  const secrets = [connection.token];
  const rest = {
    service: SERVICE,
    target: context.target,
    options: context.options,
    signal: context.signal,
    log: context.log,
    authorization: `token ${connection.token}`,
    token: connection.token,
  };

  async function call(
    method: ServiceRequest['method'],
    path: string,
    body?: unknown,
    url = `${connection.apiBase}${path}`,
  ): Promise<ServiceAnswer> {
    const answer = await callTokenRest(rest, method, url, body);
    if (answer.status >= 200 && answer.status < 300) return answer;
    const reason =
      answer.status >= 500
        ? serverErrorReason(SERVICE, answer.status)
        : `Gitea answered HTTP ${answer.status}: ${giteaMessage(answer.body)}${hint(answer.status)}`;
    throw new GiteaApiError(
      redact(`${context.target}: ${method} ${path} failed: ${reason}`, secrets),
      answer.status,
    );
  }

  return {
    /** Every comment on the pull request's issue, oldest first. */
    async listIssueComments(repo: string, index: number): Promise<GiteaComment[]> {
      const path = `/repos/${repoPath(repo)}/issues/${index}/comments`;
      const comments: GiteaComment[] = [];
      let url: string | undefined = `${connection.apiBase}${path}`;
      for (let page = 0; url !== undefined && page < MAX_PAGES; page++) {
        const answer = await call('GET', path, undefined, url);
        comments.push(...z.array(commentSchema).parse(answer.body));
        url = nextPage(answer, connection.apiBase);
      }
      return comments;
    },
    async postIssueComment(repo: string, index: number, body: string): Promise<number> {
      const answer = await call('POST', `/repos/${repoPath(repo)}/issues/${index}/comments`, {
        body,
      });
      return createdSchema.parse(answer.body).id;
    },
    async editIssueComment(repo: string, id: string, body: string): Promise<void> {
      await call('PATCH', `/repos/${repoPath(repo)}/issues/comments/${id}`, { body });
    },
    async deleteIssueComment(repo: string, id: string): Promise<void> {
      await call('DELETE', `/repos/${repoPath(repo)}/issues/comments/${id}`);
    },
    /** The pull request's unified diff (`GET /repos/{owner}/{repo}/pulls/{index}.diff`). */
    async pullRequestDiff(repo: string, index: number): Promise<string> {
      return (await call('GET', `/repos/${repoPath(repo)}/pulls/${index}.diff`)).text;
    },
    /** The pull request as Gitea gives it (`GET /repos/{owner}/{repo}/pulls/{index}`), unread. */
    async pullRequest(repo: string, index: number): Promise<unknown> {
      return (await call('GET', `/repos/${repoPath(repo)}/pulls/${index}`)).body;
    },
    /**
     * The file `path` at commit `ref` (`GET /repos/{owner}/{repo}/raw/{path}?ref=`), as text;
     * undefined when it does not exist there.
     */
    async rawFile(repo: string, ref: string, path: string): Promise<string | undefined> {
      const endpoint = `/repos/${repoPath(repo)}/raw/${filePath(path)}?ref=${encodeURIComponent(ref)}`;
      try {
        return (await call('GET', endpoint)).text;
      } catch (error) {
        if (error instanceof GiteaApiError && error.status === 404) return undefined;
        throw error;
      }
    },
    async postReview(repo: string, index: number, review: GiteaReview): Promise<number> {
      const answer = await call('POST', `/repos/${repoPath(repo)}/pulls/${index}/reviews`, review);
      return createdSchema.parse(answer.body).id;
    },
    /** Every review's line comments on the pull request, review by review, oldest first. */
    async listReviewComments(repo: string, index: number): Promise<GiteaReviewComment[]> {
      const path = `/repos/${repoPath(repo)}/pulls/${index}/reviews`;
      const reviews: { id: number }[] = [];
      let url: string | undefined = `${connection.apiBase}${path}`;
      for (let page = 0; url !== undefined && page < MAX_PAGES; page++) {
        const answer = await call('GET', path, undefined, url);
        reviews.push(...z.array(reviewSchema).parse(answer.body));
        url = nextPage(answer, connection.apiBase);
      }
      const comments: GiteaReviewComment[] = [];
      for (const review of reviews) {
        const answer = await call('GET', `${path}/${review.id}/comments`);
        comments.push(...z.array(reviewCommentSchema).parse(answer.body));
      }
      return comments;
    },
    /**
     * Resolves the conversation of a review comment
     * (`POST /repos/{owner}/{repo}/pulls/{index}/comments/{id}/resolve`, go-gitea/gitea #36441);
     * `'unsupported'` where the instance has no such endpoint (Forgejo, an older Gitea: 404, 405).
     */
    async resolveReviewComment(
      repo: string,
      index: number,
      commentId: string,
    ): Promise<void | 'unsupported'> {
      const path = `/repos/${repoPath(repo)}/pulls/${index}/comments/${commentId}/resolve`;
      try {
        await call('POST', path);
      } catch (error) {
        if (error instanceof GiteaApiError && (error.status === 404 || error.status === 405)) {
          return 'unsupported';
        }
        throw error;
      }
    },
    async postStatus(repo: string, sha: string, status: GiteaStatus): Promise<void> {
      await call('POST', `/repos/${repoPath(repo)}/statuses/${encodeURIComponent(sha)}`, status);
    },
    /**
     * `login`'s permission on the repository (`GET /repos/{owner}/{repo}/collaborators/{login}/permission`):
     * `none`, `read`, `write`, `admin` or `owner`. Gitea answers it only to an administrator of the
     * repository or of the instance (403 otherwise), and 404 for a user it does not know.
     */
    async collaboratorPermission(repo: string, login: string): Promise<string> {
      const path = `/repos/${repoPath(repo)}/collaborators/${encodeURIComponent(login)}/permission`;
      return permissionSchema.parse((await call('GET', path)).body).permission;
    },
    /** The token's own account (`GET /user`). */
    async currentUser(): Promise<string> {
      return userSchema.parse((await call('GET', '/user')).body).login;
    },
  };
}

export type GiteaApi = ReturnType<typeof giteaApi>;
