import { verifyForgeSignature } from '@webhook-gateway/auth-forge';
import { describe, expect, it } from 'vitest';
import { defaultTestPayload, gatewayBaseUrl, testDelivery } from './test-request.js';

describe('gatewayBaseUrl', () => {
  it.each([
    ['0.0.0.0', 8644, 'http://127.0.0.1:8644'],
    ['::', 8644, 'http://[::1]:8644'],
    ['[::]', 9000, 'http://[::1]:9000'],
    ['127.0.0.1', 1, 'http://127.0.0.1:1'],
    ['::1', 8644, 'http://[::1]:8644'],
    ['gateway.internal', 80, 'http://gateway.internal:80'],
  ])('reaches a gateway bound to %s:%d at %s', (host, port, url) => {
    expect(gatewayBaseUrl(host, port)).toBe(url);
  });
});

describe('testDelivery', () => {
  const subscription = { name: 'ci', events: [] as string[], secret: 'the-subscription-secret' };

  it('signs the exact body with the subscription secret, as the forge scheme verifies it', () => {
    const delivery = testDelivery(subscription, { baseUrl: 'http://127.0.0.1:8644' });
    const signature = delivery.headers['X-Forge-Signature-256'] ?? '';
    expect(
      verifyForgeSignature(Buffer.from(delivery.body), signature, ['the-subscription-secret']),
    ).toBe(true);
    expect(verifyForgeSignature(Buffer.from(delivery.body), signature, ['another-secret'])).toBe(
      false,
    );
  });

  it('posts to /webhooks/<name> with a fresh delivery id each time', () => {
    const first = testDelivery(subscription, { baseUrl: 'http://127.0.0.1:8644/' });
    const second = testDelivery(subscription, { baseUrl: 'http://127.0.0.1:8644/' });
    expect(first.url).toBe('http://127.0.0.1:8644/webhooks/ci');
    expect(first.headers['X-Forge-Delivery']).toBe(first.deliveryId);
    expect(first.deliveryId).not.toBe(second.deliveryId);
  });

  it('sends test with the default payload when the subscription takes every event (ping would be ignored)', () => {
    const delivery = testDelivery(subscription, { baseUrl: 'http://127.0.0.1:1' });
    expect(delivery.event).toBe('test');
    expect(delivery.headers['X-Forge-Event']).toBe('test');
    expect(JSON.parse(delivery.body)).toEqual(JSON.parse(defaultTestPayload('ci')));
  });

  it("sends the subscription's first event so the test is not ignored, unless --event says", () => {
    const listed = { ...subscription, events: ['push', 'pull_request'] };
    expect(testDelivery(listed, { baseUrl: 'http://127.0.0.1:1' }).event).toBe('push');
    expect(testDelivery(listed, { baseUrl: 'http://127.0.0.1:1', event: 'issues' }).event).toBe(
      'issues',
    );
  });

  it('sends a given payload byte for byte', () => {
    const payload = '{ "action": "opened",\n  "number": 7 }';
    expect(testDelivery(subscription, { baseUrl: 'http://127.0.0.1:1', payload }).body).toBe(
      payload,
    );
  });
});
