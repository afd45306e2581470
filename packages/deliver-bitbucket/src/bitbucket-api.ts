/**
 * The Bitbucket Cloud REST API calls the targets make, under `/2.0` with
 * `Authorization: Bearer …`: a pull request's comments (list, create, inline, edit, delete,
 * resolve), the token's account, the pull request itself, its diff and the diff between two
 * commits, a file at a commit, and a commit's build status. Each call waits out 429s (target-kit's `callRest`); any other
 * failure throws a `BitbucketApiError` that says what to fix and never shows the token. Every
 * body the gateway writes has its hidden markers written the Bitbucket way (`hideMarkers`).
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
import { hideMarkers } from './markers.js';
import type { BitbucketConnection } from './settings.js';

const SERVICE = 'Bitbucket';
/** Pages followed at most (a runaway `next` stops here). */
const MAX_PAGES = 100;

/** A failed call: the HTTP status, for callers that read one (a refused inline comment). */
export class BitbucketApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'BitbucketApiError';
    this.status = status;
  }
}

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

const accountSchema = z.object({
  uuid: z.string().min(1),
  account_id: z.string().nullish(),
  nickname: z.string().nullish(),
});
export type BitbucketAccount = z.infer<typeof accountSchema>;

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

export interface BitbucketCallContext {
  connection: BitbucketConnection;
  options: HttpTargetOptions;
  signal: AbortSignal;
  log: Logger;
  /** The target, first in every error (`bitbucket_comment`). */
  target: string;
}

/** `workspace/repo_slug` as two escaped path segments. */
function repoPath(repo: string): string {
  return repo
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/** Bitbucket's own words for a refusal (`{ error: { message } }`), else a short excerpt. */
function bitbucketMessage(body: unknown): string {
  const parsed = z.object({ error: z.object({ message: z.string().min(1) }) }).safeParse(body);
  return parsed.success ? parsed.data.error.message : bodyExcerpt(body);
}

function hint(status: number): string {
  if (status === 401) return ' (check platforms.bitbucket.token)';
  if (status === 403) return " (the token may not write to this repository's pull requests)";
  if (status === 404) {
    return " (check the route's deliver_extra.repo and pr_number, and that the token can see the repository)";
  }
  return '';
}

/** True for an address on the API's own origin: the token goes only where it was configured to. */
function sameOrigin(url: string, apiBase: string): boolean {
  return new URL(url, apiBase).origin === new URL(apiBase).origin;
}

/** The calls, bound to one connection and delivery. */
export function bitbucketApi(context: BitbucketCallContext) {
  const { connection } = context;
  const secrets = [connection.token];
  const rest = {
    service: SERVICE,
    target: context.target,
    options: context.options,
    signal: context.signal,
    log: context.log,
    authorization: `Bearer ${connection.token}`,
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
    // The diff endpoint answers with a redirect to the repository's diff: followed on the API's
    // own origin only.
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location && method === 'GET') {
      if (sameOrigin(location, connection.apiBase)) {
        return call(method, path, body, new URL(location, connection.apiBase).toString());
      }
    }
    const reason =
      answer.status >= 500
        ? serverErrorReason(SERVICE, answer.status)
        : `Bitbucket answered HTTP ${answer.status}: ${bitbucketMessage(answer.body)}${hint(answer.status)}`;
    throw new BitbucketApiError(
      redact(`${context.target}: ${method} ${path} failed: ${reason}`, secrets),
      answer.status,
    );
  }

  const comments = (repo: string, id: number) =>
    `/repositories/${repoPath(repo)}/pullrequests/${id}/comments`;

  return {
    /** Every comment on the pull request not deleted, oldest first, across pages. */
    async listComments(repo: string, id: number): Promise<BitbucketComment[]> {
      const path = comments(repo, id);
      const found: BitbucketComment[] = [];
      let url: string | undefined = `${connection.apiBase}${path}`;
      for (let page = 0; url !== undefined && page < MAX_PAGES; page++) {
        const { values, next } = pageSchema.parse((await call('GET', path, undefined, url)).body);
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
    /** The token's account (`GET /user`). */
    async currentUser(): Promise<BitbucketAccount> {
      return accountSchema.parse((await call('GET', '/user')).body);
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
        if (error instanceof BitbucketApiError && error.status === 404) return undefined;
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
