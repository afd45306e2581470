/** `webhook list` output: an aligned table for people, JSON for scripts; secrets masked in both. */
import type { Subscription } from '@webhook-gateway/core';
import { maskSecret } from '@webhook-gateway/core/runtime';
import { formatTable, formatTime } from '../../table.js';

/** A subscription as `webhook list --json` prints it. */
export interface SubscriptionView {
  name: string;
  path: string;
  description: string | null;
  events: string[];
  prompt: string | null;
  deliver: string;
  deliver_chat_id: string | null;
  skills: string[];
  /** `****` and at most the last four characters. */
  secret: string;
  created_at: string;
  updated_at: string;
  /** A static route of config.yaml has the same name and is served instead. */
  shadowed_by_static_route: boolean;
}

export function subscriptionView(
  subscription: Subscription,
  staticRoutes: ReadonlySet<string>,
): SubscriptionView {
  return {
    name: subscription.name,
    path: `/webhooks/${subscription.name}`,
    description: subscription.description,
    events: subscription.events,
    prompt: subscription.prompt,
    deliver: subscription.deliver,
    deliver_chat_id: subscription.deliverChatId,
    skills: subscription.skills,
    secret: maskSecret(subscription.secret),
    created_at: new Date(subscription.createdAt).toISOString(),
    updated_at: new Date(subscription.updatedAt).toISOString(),
    shadowed_by_static_route: staticRoutes.has(subscription.name),
  };
}

/** The table of `webhook list`, with a note naming subscriptions a static route shadows. */
export function formatSubscriptionList(
  subscriptions: readonly Subscription[],
  staticRoutes: ReadonlySet<string>,
): string {
  if (subscriptions.length === 0) {
    return 'No subscriptions. Add one with: webhook-gateway webhook subscribe <name>';
  }
  const rows = subscriptions.map((s) => [
    s.name,
    s.events.length > 0 ? s.events.join(',') : '(all)',
    s.deliver + (s.deliverChatId ? ` → ${s.deliverChatId}` : ''),
    maskSecret(s.secret),
    formatTime(s.updatedAt),
    s.description ?? '',
  ]);
  const table = formatTable(
    ['NAME', 'EVENTS', 'DELIVER', 'SECRET', 'UPDATED', 'DESCRIPTION'],
    rows,
  );
  const shadowed = subscriptions.filter((s) => staticRoutes.has(s.name)).map((s) => s.name);
  return shadowed.length === 0
    ? table
    : `${table}\n\nnote: static routes of config.yaml win over: ${shadowed.join(', ')}`;
}
