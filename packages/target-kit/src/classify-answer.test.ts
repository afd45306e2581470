import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_AFTER_MS,
  rateLimitedByHeader,
  serverErrorReason,
} from './classify-answer.js';

const answer = (headers: Record<string, string>) => ({
  status: 429,
  headers: new Headers(headers),
  body: '',
  text: '',
});

describe('rateLimitedByHeader', () => {
  it('waits what Retry-After says', () => {
    expect(rateLimitedByHeader(answer({ 'retry-after': '2.5' }))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 2500,
    });
  });

  it('waits the default when Retry-After is missing or unreadable', () => {
    expect(rateLimitedByHeader(answer({}))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: DEFAULT_RETRY_AFTER_MS,
    });
    expect(rateLimitedByHeader(answer({ 'retry-after': 'soon' }))).toMatchObject({
      retryAfterMs: DEFAULT_RETRY_AFTER_MS,
    });
  });
});

describe('serverErrorReason', () => {
  it('names the service and the status and says the delivery is retried', () => {
    expect(serverErrorReason('Twilio', 503)).toBe(
      'Twilio answered HTTP 503 (a problem on its side); the delivery will be retried',
    );
  });
});
