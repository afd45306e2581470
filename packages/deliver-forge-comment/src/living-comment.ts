/**
 * `deliver_extra.mode: update` on `forge_comment` and `altforge_comment`: one living comment per
 * pull (merge) request and route. The gateway's comments carry a hidden marker; the answer's
 * parts edit the marked comments in order, parts without a comment are posted, and marked
 * comments beyond the answer are deleted. A comment someone deleted is simply posted again.
 * What differs between the forges (how comments are listed, edited, posted, deleted) comes in as
 * a `LivingCommentApi`.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import { CommentDeliveryError } from './errors.js';
import { inTurn } from './in-turn.js';

/** How a route's comments are found again: a line no reader sees. */
export function commentMarker(route: string): string {
  return `<!-- webhook-gateway:${route} -->`;
}

/**
 * Ends a queued review's status line (`living-comment-waiting.ts`), so the next status replaces
 * it instead of stacking; a forge that hides markers its own way looks for it too.
 */
export const WAITING_MARKER = '<!-- webhook-gateway:waiting -->';

const MODES = ['new', 'update'] as const;
type CommentMode = (typeof MODES)[number];
const isMode = (value: unknown): value is CommentMode => MODES.some((mode) => mode === value);
const modeMessage = (mode: unknown) =>
  `deliver_extra.mode is ${JSON.stringify(mode)}; use "new" or "update"`;

/** `deliver_extra.mode`: `new` (default) posts a comment per answer; `update` edits one. */
export function commentMode(target: string, extra: Record<string, unknown>): CommentMode {
  const mode = extra.mode ?? 'new';
  if (isMode(mode)) return mode;
  throw Object.assign(new CommentDeliveryError(target, 'invalid-target', modeMessage(mode)), {
    retryable: false,
  });
}

/**
 * Routes to `targets` whose `deliver_extra.mode` can never work, found when the config is read
 * (a templated mode, `{…}`, is left for delivery time).
 */
export function commentModeProblems(
  config: GatewayConfig,
  targets: readonly string[],
): ConfigProblem[] {
  return Object.entries(config.platforms.webhook.extra.routes).flatMap(([name, route]) => {
    const mode = route.deliver_extra.mode;
    if (!targets.includes(route.deliver) || mode === undefined || isMode(mode)) return [];
    if (typeof mode === 'string' && mode.includes('{')) return [];
    return [
      {
        path: `platforms.webhook.extra.routes.${name}.deliver_extra.mode`,
        message: `${route.deliver}: ${modeMessage(mode)}`,
      },
    ];
  });
}

/**
 * Room kept free in every part for a queued review's status line and the blank line after it
 * (`living-comment-waiting.ts`), so even a long review's first part can take one.
 */
const WAITING_LINE_ROOM = 256;

/**
 * The longest part body that still fits `limit` once the marker line is put in front, with room
 * left for a queued review's status line.
 */
export function livingPartLimit(limit: number, route: string): number {
  return limit - commentMarker(route).length - 1 - WAITING_LINE_ROOM;
}

/** A comment of the route's, as the forge lists it. */
export interface MarkedComment {
  id: string;
  body: string;
}

/** One forge's comments on one pull (merge) request, as the living comment needs them. */
export interface LivingCommentApi {
  /** Names the forge and pull request (`gitea octo/repo#3`): edits of one comment take turns. */
  readonly place: string;
  /** The comments whose body contains `marker`, oldest first, across all pages. */
  listMarked(marker: string): Promise<MarkedComment[]>;
  edit(id: string, body: string): Promise<void>;
  post(body: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/** What an update did, for the log. */
export interface LivingCommentOutcome {
  edited: number;
  posted: number;
  deleted: number;
}

/**
 * Edits, posts and deletes the route's marked comments so they hold `bodies` (the answer's parts,
 * each short enough for `livingPartLimit`), in order.
 */
export async function updateLivingComment(
  api: LivingCommentApi,
  route: string,
  bodies: readonly string[],
): Promise<LivingCommentOutcome> {
  return inTurn(`${api.place} ${route}`, () => replaceLivingComment(api, route, bodies));
}

async function replaceLivingComment(
  api: LivingCommentApi,
  route: string,
  bodies: readonly string[],
): Promise<LivingCommentOutcome> {
  const marker = commentMarker(route);
  const ids = (await api.listMarked(marker)).map((comment) => comment.id);
  const outcome: LivingCommentOutcome = { edited: 0, posted: 0, deleted: 0 };
  for (const [index, body] of bodies.entries()) {
    const marked = `${marker}\n${body}`;
    const id = ids[index];
    if (id !== undefined) {
      await api.edit(id, marked);
      outcome.edited++;
    } else {
      await api.post(marked);
      outcome.posted++;
    }
  }
  for (const id of ids.slice(bodies.length)) {
    await api.remove(id);
    outcome.deleted++;
  }
  return outcome;
}
