/**
 * What `webhook subscribe` stores: a new subscription from the options given, or an existing one
 * with only the given fields changed (the secret, too, is kept unless a new one is given).
 */
import type { Subscription } from '@webhook-gateway/core';

/** The fields `webhook subscribe` can set; undefined means "keep" (or the default when new). */
export interface SubscriptionChanges {
  events?: string[] | undefined;
  prompt?: string | undefined;
  /** Canonical target name. */
  deliver?: string | undefined;
  deliverChatId?: string | undefined;
  skills?: string[] | undefined;
  secret?: string | undefined;
  description?: string | undefined;
}

export interface SubscribeResult {
  subscription: Subscription;
  created: boolean;
  /** Set when the secret was generated here: it is printed this one time. */
  generatedSecret?: string;
}

/** An empty text clears an optional field. */
function textOrNull(value: string): string | null {
  return value === '' ? null : value;
}

/**
 * Merges `changes` into `existing` (or a new subscription named `name`).
 *
 * @example applySubscriptionChanges('ci', undefined, { events: ['push'] }, Date.now(), generateSecret)
 */
export function applySubscriptionChanges(
  name: string,
  existing: Subscription | undefined,
  changes: SubscriptionChanges,
  now: number,
  newSecret: () => string,
): SubscribeResult {
  const generatedSecret = !existing && changes.secret === undefined ? newSecret() : undefined;
  const base: Subscription = existing ?? {
    name,
    description: null,
    events: [],
    prompt: null,
    deliver: 'log',
    deliverChatId: null,
    skills: [],
    secret: generatedSecret ?? '',
    createdAt: now,
    updatedAt: now,
  };
  const subscription: Subscription = {
    ...base,
    name,
    description:
      changes.description === undefined ? base.description : textOrNull(changes.description),
    events: changes.events ?? base.events,
    prompt: changes.prompt === undefined ? base.prompt : textOrNull(changes.prompt),
    deliver: changes.deliver ?? base.deliver,
    deliverChatId:
      changes.deliverChatId === undefined ? base.deliverChatId : textOrNull(changes.deliverChatId),
    skills: changes.skills ?? base.skills,
    secret: changes.secret ?? base.secret,
    updatedAt: now,
  };
  return {
    subscription,
    created: existing === undefined,
    ...(generatedSecret === undefined ? {} : { generatedSecret }),
  };
}
