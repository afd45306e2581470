import type { Subscription } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { formatSubscriptionList, subscriptionView } from './list-format.js';

const subscription: Subscription = {
  name: 'ci',
  description: 'CI events',
  events: ['push', 'pull_request'],
  prompt: null,
  deliver: 'messenger_a',
  deliverChatId: '-1001',
  skills: [],
  secret: 'abcdefghijklmnop-wxyz',
  createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
  updatedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
};

describe('formatSubscriptionList', () => {
  it('shows one aligned row per subscription with the secret masked', () => {
    const text = formatSubscriptionList(
      [subscription, { ...subscription, name: 'all', events: [], deliverChatId: null }],
      new Set(),
    );
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+EVENTS\s+DELIVER\s+SECRET\s+UPDATED\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^ci\s+push,pull_request\s+messenger_a → -1001\s+\*\*\*\*wxyz\s/);
    expect(lines[2]).toMatch(/^all\s+\(all\)\s+messenger_a\s/);
    expect(text).not.toContain('abcdefghijklmnop');
  });

  it('notes the subscriptions a static route of the same name wins over', () => {
    expect(formatSubscriptionList([subscription], new Set(['ci']))).toContain(
      'note: static routes of config.yaml win over: ci',
    );
  });

  it('says how to add one when there are none', () => {
    expect(formatSubscriptionList([], new Set())).toContain('webhook subscribe <name>');
  });
});

describe('subscriptionView', () => {
  it('never holds the secret, only its last four characters', () => {
    const view = subscriptionView(subscription, new Set());
    expect(view.secret).toBe('****wxyz');
    expect(JSON.stringify(view)).not.toContain('abcdefghijklmnop');
    expect(view).toMatchObject({
      path: '/webhooks/ci',
      deliver_chat_id: '-1001',
      created_at: '2026-01-02T03:04:05.000Z',
      shadowed_by_static_route: false,
    });
  });
});
