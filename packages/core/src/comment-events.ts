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

/** The comment events: forge `issue_comment` and `pull_request_review_comment`, altforge notes. */
const FORGE_COMMENT_EVENTS = new Set(['issue_comment', 'pull_request_review_comment']);
const ALTFORGE_NOTE_EVENTS = new Set(['Note Hook', 'note']);

function text(payload: JsonObject, path: string): string | undefined {
  const value = lookupPath(payload, path);
  return typeof value === 'string' ? value : undefined;
}

function isAltforgeNote(event: string, payload: JsonObject): boolean {
  return ALTFORGE_NOTE_EVENTS.has(event) || payload.object_kind === 'note';
}

/** True for a comment event (forge issue or review comment, altforge note). */
export function isCommentEvent(event: string, payload: JsonObject): boolean {
  return FORGE_COMMENT_EVENTS.has(event) || isAltforgeNote(event, payload);
}

/** The comment's text: `comment.body` (forge) or `object_attributes.note` (altforge). */
export function commentBody(event: string, payload: JsonObject): string | undefined {
  if (FORGE_COMMENT_EVENTS.has(event)) return text(payload, 'comment.body');
  if (isAltforgeNote(event, payload)) return text(payload, 'object_attributes.note');
  return undefined;
}

/** Who wrote the comment: `sender.login` (forge) or `user.username` (altforge). */
export function commentAuthor(event: string, payload: JsonObject): string | undefined {
  if (FORGE_COMMENT_EVENTS.has(event)) return text(payload, 'sender.login');
  if (isAltforgeNote(event, payload)) return text(payload, 'user.username');
  return undefined;
}

/** True when the comment carries the gateway's own marker. */
export function carriesGatewayMarker(event: string, payload: JsonObject): boolean {
  return commentBody(event, payload)?.includes(GATEWAY_MARKER) ?? false;
}

/** The accounts the gateway posts as on each platform, once `deliver-forge-comment` has asked. */
export interface OwnAccounts {
  forge?: string;
  altforge?: string;
}

/**
 * The loop guard's one question: did the gateway write this comment? Yes when it carries the
 * gateway's marker, or when the platform's account the gateway posts as wrote it (known only
 * once asked: without `accounts`, the marker alone decides).
 *
 * @example isOwnComment('issue_comment', payload, { forge: 'review-bot' })
 */
export function isOwnComment(
  event: string,
  payload: JsonObject,
  accounts: OwnAccounts = {},
): boolean {
  if (!isCommentEvent(event, payload)) return false;
  if (carriesGatewayMarker(event, payload)) return true;
  const author = commentAuthor(event, payload);
  const own = isAltforgeNote(event, payload) ? accounts.altforge : accounts.forge;
  return author !== undefined && author === own;
}

/** True when the forge says a bot sent the event (`sender.type: Bot`). */
export function sentByBot(payload: JsonObject): boolean {
  return text(payload, 'sender.type') === 'Bot';
}

/**
 * True for the deliveries a command route can run: a new forge comment on a pull request
 * (`issue_comment` created, `issue.pull_request` present) or a new altforge note on a merge request.
 */
export function isCommandEvent(event: string, payload: JsonObject): boolean {
  if (event === 'issue_comment') {
    const pullRequest = lookupPath(payload, 'issue.pull_request');
    return (
      payload.action === 'created' &&
      typeof pullRequest === 'object' &&
      pullRequest !== null &&
      typeof lookupPath(payload, 'comment.body') === 'string'
    );
  }
  if (isAltforgeNote(event, payload)) {
    return (
      text(payload, 'object_attributes.noteable_type') === 'MergeRequest' &&
      typeof lookupPath(payload, 'object_attributes.note') === 'string'
    );
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
