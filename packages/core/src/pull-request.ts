/**
 * Which pull (merge) request a payload is about, read the way its sender writes it. The one place
 * that knows each sender's shape: the order key (one at a time, `supersede`), the previous head
 * commit (`{_gateway.previous_head_sha}`), the forge targets and the dashboard all ask here.
 */
import type { JsonObject } from './template.js';

/** A pull or merge request as a payload names it. */
export interface PullRequest {
  /**
   * The repository: `owner/repo` (forge, Gitea and Forgejo, Bitbucket Cloud), the project's
   * `group/project` path (altforge), `PROJECT/repo` (Bitbucket Data Center).
   */
  repo: string;
  /** The number in that repository (the altforge's `iid`, Bitbucket's `id`). */
  number: number;
  /** The head commit, when the event names one (a forge comment's payload does not). */
  headSha?: string;
  /** The request's page: an http(s) address only, when the payload gives one. */
  url?: string;
}

type Row = (payload: JsonObject) => PullRequest | undefined;

function object(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** An http(s) address, checked by its scheme alone: the receiver reads every payload, so no parsing. */
function webAddress(value: unknown): string | undefined {
  const address = text(value);
  return address !== undefined && /^https?:\/\//i.test(address) ? address : undefined;
}

function pullRequest(
  repo: string | undefined,
  number: number | undefined,
  headSha: unknown,
  url: unknown,
): PullRequest | undefined {
  if (repo === undefined || number === undefined) return undefined;
  const sha = text(headSha);
  const page = webAddress(url);
  return { repo, number, ...(sha ? { headSha: sha } : {}), ...(page ? { url: page } : {}) };
}

/**
 * The forge's shape, which Gitea and Forgejo share: `pull_request` events, and comments on a
 * pull request, which arrive as comments on its issue (`issue.pull_request` set).
 */
const forgeRow: Row = (payload) => {
  const repo = text(object(payload.repository)?.full_name);
  const pr = object(payload.pull_request);
  if (pr) return pullRequest(repo, positive(pr.number), object(pr.head)?.sha, pr.html_url);
  const issue = object(payload.issue);
  const issuePr = object(issue?.pull_request);
  if (!issue || !issuePr) return undefined;
  return pullRequest(repo, positive(issue.number), undefined, issuePr.html_url ?? issue.html_url);
};

/** The altforge's Merge Request Hook (`object_attributes`), and a note on a merge request. */
const altforgeRow: Row = (payload) => {
  const repo = text(object(payload.project)?.path_with_namespace);
  const mr =
    payload.object_kind === 'merge_request'
      ? object(payload.object_attributes)
      : object(payload.merge_request);
  if (!mr) return undefined;
  return pullRequest(repo, positive(mr.iid), object(mr.last_commit)?.id, mr.web_url ?? mr.url);
};

/** Bitbucket Cloud (`pullrequest:*` events): the request under `pullrequest`. */
const bitbucketCloudRow: Row = (payload) => {
  const pr = object(payload.pullrequest);
  if (!pr) return undefined;
  return pullRequest(
    text(object(payload.repository)?.full_name),
    positive(pr.id),
    object(object(pr.source)?.commit)?.hash,
    object(object(pr.links)?.html)?.href,
  );
};

/** Bitbucket Data Center (`pr:*` events): the request under `pullRequest`, its repository on `toRef`. */
const bitbucketDataCenterRow: Row = (payload) => {
  const pr = object(payload.pullRequest);
  if (!pr) return undefined;
  const repository = object(object(pr.toRef)?.repository);
  const project = text(object(repository?.project)?.key);
  const slug = text(repository?.slug);
  const self = object(pr.links)?.self;
  return pullRequest(
    project && slug ? `${project}/${slug}` : undefined,
    positive(pr.id),
    object(pr.fromRef)?.latestCommit,
    Array.isArray(self) ? object(self[0])?.href : undefined,
  );
};

/** Each sender's rows, by the name of its auth scheme. */
const ROWS_BY_SENDER: ReadonlyMap<string, readonly Row[]> = new Map([
  ['forge', [forgeRow]],
  ['gitea', [forgeRow]],
  ['altforge', [altforgeRow]],
  ['bitbucket', [bitbucketCloudRow, bitbucketDataCenterRow]],
]);

/** For a payload of no known sender (an open route, a generic scheme): every row, in this order. */
const ALL_ROWS: readonly Row[] = [forgeRow, altforgeRow, bitbucketCloudRow, bitbucketDataCenterRow];

/**
 * The pull or merge request `payload` is about, read by the rows of `sender` (the auth scheme that
 * verified it: `forge`, `gitea`, `altforge`, `bitbucket`); any other sender, or none, tries every
 * row. `undefined` when the event is not about one (a push, a comment on a plain issue).
 *
 * @example pullRequestOf(pullRequestOpened, 'forge')
 * // { repo: 'Codertocat/Hello-World', number: 2, headSha: 'ec26c3e5…', url: 'https://github.com/…/pull/2' }
 */
export function pullRequestOf(payload: JsonObject, sender?: string): PullRequest | undefined {
  const rows = (sender !== undefined ? ROWS_BY_SENDER.get(sender) : undefined) ?? ALL_ROWS;
  for (const row of rows) {
    const found = row(payload);
    if (found) return found;
  }
  return undefined;
}
