/**
 * Comments as the gateway reads them: which events are comments, who wrote them, whether the
 * gateway wrote them itself (loop guard), and which route command (`/review`, `@bot`) they carry.
 * Pure functions over the payload, shared by the receiver's filter and the attempt's templates.
 */
import { lookupPath, type JsonObject } from './template.js';

/** Starts the hidden HTML comment the gateway puts in every comment it posts. */
export const GATEWAY_MARKER = '<!-- webhook-gateway:';

/** The marker line of the comments a delivery posts: hidden when rendered, found by the guard. */
export function gatewayMarker(deliveryId: string): string {
  // `--` cannot appear inside an HTML comment; a delivery id is the sender's, so keep it safe.
  return `${GATEWAY_MARKER}delivery ${deliveryId.replace(/[^A-Za-z0-9._:-]/g, '_').replace(/-{2,}/g, '-')} -->`;
}

/**
 * The comment events: forge `issue_comment` and `pull_request_review_comment` (Gitea and Forgejo
 * send their pull-request comments as `issue_comment` too), altforge notes, Bitbucket Cloud's
 * and Data Center's pull-request comments.
 */
const FORGE_COMMENT_EVENTS = new Set(['issue_comment', 'pull_request_review_comment']);
const ALTFORGE_NOTE_EVENTS = new Set(['Note Hook', 'note']);
const BITBUCKET_CLOUD_COMMENT_EVENTS = new Set([
  'pullrequest:comment_created',
  'pullrequest:comment_updated',
]);
const BITBUCKET_DATA_CENTER_COMMENT_EVENTS = new Set(['pr:comment:added', 'pr:comment:edited']);

function text(payload: JsonObject, path: string): string | undefined {
  const value = lookupPath(payload, path);
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAltforgeNote(event: string, payload: JsonObject): boolean {
  return ALTFORGE_NOTE_EVENTS.has(event) || payload.object_kind === 'note';
}

function isBitbucketComment(event: string): boolean {
  return (
    BITBUCKET_CLOUD_COMMENT_EVENTS.has(event) || BITBUCKET_DATA_CENTER_COMMENT_EVENTS.has(event)
  );
}

/** True for a comment event (forge or Gitea comment, altforge note, Bitbucket comment). */
export function isCommentEvent(event: string, payload: JsonObject): boolean {
  return (
    FORGE_COMMENT_EVENTS.has(event) || isAltforgeNote(event, payload) || isBitbucketComment(event)
  );
}

/**
 * The comment's text: `comment.body` (forge, Gitea), `object_attributes.note` (altforge),
 * `comment.content.raw` (Bitbucket Cloud), `comment.text` (Bitbucket Data Center).
 */
function commentBody(event: string, payload: JsonObject): string | undefined {
  if (FORGE_COMMENT_EVENTS.has(event)) return text(payload, 'comment.body');
  if (isAltforgeNote(event, payload)) return text(payload, 'object_attributes.note');
  if (BITBUCKET_CLOUD_COMMENT_EVENTS.has(event)) return text(payload, 'comment.content.raw');
  if (BITBUCKET_DATA_CENTER_COMMENT_EVENTS.has(event)) return text(payload, 'comment.text');
  return undefined;
}

function isName(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** Bitbucket's commenter: the comment's own author, else the event's `actor`. */
function bitbucketCommenter(event: string, payload: JsonObject): JsonObject | undefined {
  const field = BITBUCKET_CLOUD_COMMENT_EVENTS.has(event) ? 'comment.user' : 'comment.author';
  for (const path of [field, 'actor']) {
    const user = lookupPath(payload, path);
    if (isObject(user)) return user as JsonObject;
  }
  return undefined;
}

/**
 * Every name the payload gives the commenter, the one a person reads first: `sender.login`
 * (forge, Gitea), `user.username` (altforge); Bitbucket Cloud's `nickname`, `account_id`, `uuid`;
 * Data Center's `slug`, `name`.
 */
function commentAuthorNames(event: string, payload: JsonObject): string[] {
  if (FORGE_COMMENT_EVENTS.has(event)) return [text(payload, 'sender.login')].filter(isName);
  if (isAltforgeNote(event, payload)) return [text(payload, 'user.username')].filter(isName);
  const user = isBitbucketComment(event) ? bitbucketCommenter(event, payload) : undefined;
  if (!user) return [];
  const keys = BITBUCKET_CLOUD_COMMENT_EVENTS.has(event)
    ? ['nickname', 'account_id', 'uuid']
    : ['slug', 'name'];
  return keys.map((key) => text(user, key)).filter(isName);
}

/**
 * Who wrote the comment: `sender.login` (forge, Gitea), `user.username` (altforge), the
 * `nickname` (Bitbucket Cloud) or `slug` (Data Center) of the comment's author or `actor`.
 */
export function commentAuthor(event: string, payload: JsonObject): string | undefined {
  return commentAuthorNames(event, payload)[0];
}

/** True when the comment carries the gateway's own marker. */
export function carriesGatewayMarker(event: string, payload: JsonObject): boolean {
  return commentBody(event, payload)?.includes(GATEWAY_MARKER) ?? false;
}

/** The accounts the gateway posts as on each platform, once the target plugins have asked. */
export interface OwnAccounts {
  forge?: string;
  /** One per altforge token (`platforms.altforge.token` and each of `tokens`). */
  altforge?: readonly string[];
  /** Gitea or Forgejo: the login of `platforms.gitea.token`'s account. */
  gitea?: readonly string[];
  /** Bitbucket: any name of the token's account (Cloud `uuid`, `account_id`, `nickname`; Data Center `slug`). */
  bitbucket?: readonly string[];
}

/**
 * The accounts that count for this comment: the altforge's for a note, Bitbucket's for a
 * Bitbucket comment; for an `issue_comment` the forge's or Gitea's, as `sender` (the auth scheme
 * that verified it) says, and both when no scheme says.
 */
function accountsFor(
  event: string,
  payload: JsonObject,
  accounts: OwnAccounts,
  sender: string | undefined,
): readonly (string | undefined)[] {
  if (isAltforgeNote(event, payload)) return accounts.altforge ?? [];
  if (isBitbucketComment(event)) return accounts.bitbucket ?? [];
  if (sender === 'forge') return [accounts.forge];
  if (sender === 'gitea') return accounts.gitea ?? [];
  return [accounts.forge, ...(accounts.gitea ?? [])];
}

/**
 * The loop guard's one question: did the gateway write this comment? Yes when it carries the
 * gateway's marker, or when the platform's account the gateway posts as wrote it (known only
 * once asked: without `accounts`, the marker alone decides). `sender` is the auth scheme that
 * verified the delivery (`forge`, `gitea`…): Gitea's comments arrive as the forge's do.
 *
 * @example isOwnComment('issue_comment', payload, { forge: 'review-bot' }, 'forge')
 */
export function isOwnComment(
  event: string,
  payload: JsonObject,
  accounts: OwnAccounts = {},
  sender?: string,
): boolean {
  if (!isCommentEvent(event, payload)) return false;
  if (carriesGatewayMarker(event, payload)) return true;
  const own = accountsFor(event, payload, accounts, sender);
  return commentAuthorNames(event, payload).some((name) => own.includes(name));
}

/** True when the forge says a bot sent the event (`sender.type: Bot`). */
export function sentByBot(payload: JsonObject): boolean {
  return text(payload, 'sender.type') === 'Bot';
}

/**
 * True for the deliveries a command route can run: a new forge or Gitea comment on a pull request
 * (`issue_comment` created, `issue.pull_request` present), a new altforge note on a merge request,
 * a new Bitbucket Cloud comment on a pull request (`pullrequest:comment_created`) or Data Center
 * one (`pr:comment:added`).
 */
export function isCommandEvent(event: string, payload: JsonObject): boolean {
  if (event === 'issue_comment') {
    return (
      payload.action === 'created' &&
      isObject(lookupPath(payload, 'issue.pull_request')) &&
      typeof lookupPath(payload, 'comment.body') === 'string'
    );
  }
  if (isAltforgeNote(event, payload)) {
    return (
      text(payload, 'object_attributes.noteable_type') === 'MergeRequest' &&
      typeof lookupPath(payload, 'object_attributes.note') === 'string'
    );
  }
  if (event === 'pullrequest:comment_created') {
    return isObject(payload.pullrequest) && text(payload, 'comment.content.raw') !== undefined;
  }
  if (event === 'pr:comment:added') {
    return isObject(payload.pullRequest) && text(payload, 'comment.text') !== undefined;
  }
  return false;
}

/** A route command found in a comment: its name as configured, and the rest of the comment. */
export interface CommentCommand {
  name: string;
  args: string;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The first of `commands` the comment starts with (after trimming), else the first it mentions
 * as a whole word; `args` is the text after it, trimmed.
 *
 * @example findCommand(['/review'], '/review focus on tests') // { name: '/review', args: 'focus on tests' }
 */
export function findCommand(commands: readonly string[], body: string): CommentCommand | undefined {
  const trimmed = body.trim();
  for (const name of commands) {
    if (trimmed === name || (trimmed.startsWith(name) && /^\s/.test(trimmed.slice(name.length)))) {
      return { name, args: trimmed.slice(name.length).trim() };
    }
  }
  for (const name of commands) {
    // A mention stands alone: `@review-bot` is not found in `@review-bots` or `me@review-bot`.
    const match = new RegExp(`(^|[^\\w@/-])${escapeRegExp(name)}(?![\\w-])`).exec(trimmed);
    if (match) {
      return { name, args: trimmed.slice(match.index + match[0].length).trim() };
    }
  }
  return undefined;
}

/** The command of a delivery on a command route, when it is a command event that names one. */
export function deliveryCommand(
  commands: readonly string[],
  event: string,
  payload: JsonObject,
): CommentCommand | undefined {
  if (commands.length === 0 || !isCommandEvent(event, payload)) return undefined;
  const body = commentBody(event, payload);
  return body === undefined ? undefined : findCommand(commands, body);
}
