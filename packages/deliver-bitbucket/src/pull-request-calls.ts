/**
 * What the targets do on one pull request, whichever Bitbucket it is on: Cloud's calls
 * (`cloud-calls.ts`) and Data Center's (`data-center-calls.ts`) each give them, so the targets
 * and the build status are written once.
 */
import type {
  FindingThreads,
  LivingCommentApi,
} from '@webhook-gateway/deliver-forge-comment/comments';

/** A build status as both APIs take it (the states the gateway sets). */
export interface BuildStatus {
  key: string;
  state: 'SUCCESSFUL' | 'FAILED' | 'INPROGRESS';
  name: string;
  url: string;
  description: string;
}

/** A line of the new file a comment goes on. */
interface CommentLine {
  path: string;
  line: number;
  /** An added line; else a context line the diff shows. */
  added: boolean;
}

export interface BitbucketPullRequestCalls {
  /** The pull request's page: a build status links to it when the dashboard has no address. */
  readonly page: string;
  /** The longest comment the gateway posts there (`comment-limits.ts`). */
  readonly commentLimit: number;
  /** A comment on the pull request. */
  postComment(body: string): Promise<void>;
  /** The living comment's calls: general comments only, by `bot` only when it is set. */
  livingComments(bot: string | undefined): LivingCommentApi;
  /** The pull request's unified diff. */
  diff(): Promise<string>;
  /** A comment on a line; a refusal throws a `BitbucketApiError` with its status. */
  postLineComment(body: string, at: CommentLine): Promise<void>;
  /** A build status on `commit`. */
  setBuildStatus(commit: string, status: BuildStatus): Promise<void>;
  /** The gateway's finding threads, by `bot` or else the token's account. */
  findingThreads(bot: string | undefined): FindingThreads;
}
