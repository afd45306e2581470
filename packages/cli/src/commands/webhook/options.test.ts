import { describe, expect, it } from 'vitest';
import {
  optionFlag,
  optionsProblem,
  splitList,
  subscribeOptionsSchema,
  testOptionsSchema,
} from './options.js';

describe('splitList', () => {
  it('splits on commas, trims and drops empty items', () => {
    expect(splitList(' push, pull_request,,issues ')).toEqual(['push', 'pull_request', 'issues']);
  });

  it('reads an empty string as an empty list (clears the field)', () => {
    expect(splitList('')).toEqual([]);
  });
});

describe('subscribe options', () => {
  it('turns list options into arrays and leaves absent ones undefined', () => {
    const parsed = subscribeOptionsSchema.parse({ events: 'push,ping', skills: 'a' });
    expect(parsed).toMatchObject({ events: ['push', 'ping'], skills: ['a'], json: false });
    expect(parsed.prompt).toBeUndefined();
  });

  it('refuses an empty secret, naming the option', () => {
    const result = subscribeOptionsSchema.safeParse({ secret: '' });
    expect(result.success).toBe(false);
    if (!result.success) expect(optionsProblem(result.error)).toBe('--secret must not be empty');
  });
});

describe('test options', () => {
  it('accepts a JSON object payload as its text', () => {
    expect(testOptionsSchema.parse({ payload: '{"a":1}' }).payload).toBe('{"a":1}');
  });

  it.each([
    ['[1,2]', '--payload must be a JSON object'],
    ['null', '--payload must be a JSON object'],
    ['{oops', '--payload is not JSON'],
  ])('refuses the payload %s', (payload, message) => {
    const result = testOptionsSchema.safeParse({ payload });
    expect(result.success).toBe(false);
    if (!result.success) expect(optionsProblem(result.error)).toContain(message);
  });

  it('refuses a --url that is not http(s)', () => {
    const result = testOptionsSchema.safeParse({ url: 'ftp://127.0.0.1/' });
    expect(result.success).toBe(false);
  });
});

describe('optionFlag', () => {
  it('spells camelCase keys as the flags people type', () => {
    expect(optionFlag('deliverChatId')).toBe('--deliver-chat-id');
    expect(optionFlag('events')).toBe('--events');
  });
});
