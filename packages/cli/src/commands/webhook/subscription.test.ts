import type { Subscription } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { applySubscriptionChanges } from './subscription.js';

const existing: Subscription = {
  name: 'ci',
  description: 'CI events',
  events: ['push'],
  prompt: 'Summarise {ref}',
  deliver: 'messenger_a',
  deliverChatId: '-100',
  skills: ['triage'],
  secret: 'old-secret-0123456789',
  createdAt: 1_000,
  updatedAt: 1_000,
};

const fixedSecret = () => 'generated-secret';

describe('applySubscriptionChanges', () => {
  it('creates a subscription with defaults and a generated secret it reports once', () => {
    const result = applySubscriptionChanges('new', undefined, {}, 5_000, fixedSecret);
    expect(result).toEqual({
      created: true,
      generatedSecret: 'generated-secret',
      subscription: {
        name: 'new',
        description: null,
        events: [],
        prompt: null,
        deliver: 'log',
        deliverChatId: null,
        skills: [],
        secret: 'generated-secret',
        createdAt: 5_000,
        updatedAt: 5_000,
      },
    });
  });

  it('uses a given secret and reports none as generated', () => {
    const result = applySubscriptionChanges('new', undefined, { secret: 'mine' }, 5_000, () => {
      throw new Error('must not generate');
    });
    expect(result.subscription.secret).toBe('mine');
    expect(result.generatedSecret).toBeUndefined();
  });

  it('keeps every field, the secret and the creation time when only one field changes', () => {
    const result = applySubscriptionChanges(
      'ci',
      existing,
      { events: ['pull_request'] },
      9_000,
      () => {
        throw new Error('must not generate');
      },
    );
    expect(result.created).toBe(false);
    expect(result.generatedSecret).toBeUndefined();
    expect(result.subscription).toEqual({
      ...existing,
      events: ['pull_request'],
      updatedAt: 9_000,
    });
  });

  it('replaces the secret only when a new one is given', () => {
    const result = applySubscriptionChanges(
      'ci',
      existing,
      { secret: 'new-secret' },
      9_000,
      fixedSecret,
    );
    expect(result.subscription.secret).toBe('new-secret');
  });

  it('clears optional texts and lists with empty values', () => {
    const result = applySubscriptionChanges(
      'ci',
      existing,
      { description: '', prompt: '', deliverChatId: '', events: [], skills: [] },
      9_000,
      fixedSecret,
    );
    expect(result.subscription).toMatchObject({
      description: null,
      prompt: null,
      deliverChatId: null,
      events: [],
      skills: [],
    });
  });
});
