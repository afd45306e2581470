import { describe, expect, it } from 'vitest';
import {
  OptionsError,
  listOptionsSchema,
  parseDeliveryIdArgument,
  parseOptions,
} from './options.js';

describe('deliveries list options', () => {
  it('turns the strings commander gives into typed values', () => {
    expect(
      parseOptions(listOptionsSchema, {
        status: 'failed',
        limit: '20',
        route: 'reviews',
        json: true,
      }),
    ).toEqual({ status: 'failed', limit: 20, route: 'reviews', json: true });
  });

  it('leaves unset options unset and --json off', () => {
    expect(parseOptions(listOptionsSchema, {})).toEqual({ json: false });
  });

  it.each([
    [
      { status: 'done' },
      '--status must be one of queued, running, delivered, failed, denied, over_budget, superseded, silent, skipped (got "done")',
    ],
    [{ limit: '0' }, '--limit must be a positive integer (got "0")'],
    [{ limit: '-3' }, '--limit must be a positive integer (got "-3")'],
    [{ limit: '2.5' }, '--limit must be a positive integer (got "2.5")'],
    [{ limit: 'ten' }, '--limit must be a positive integer (got "ten")'],
    [{ route: '' }, '--route must not be empty (got "")'],
  ])('refuses %j naming the option and the value', (raw, message) => {
    expect(() => parseOptions(listOptionsSchema, raw)).toThrow(new OptionsError(message));
  });
});

describe('the id argument', () => {
  it('is trimmed', () => {
    expect(parseDeliveryIdArgument('  abc-1 ')).toBe('abc-1');
  });

  it('may not be empty', () => {
    expect(() => parseDeliveryIdArgument(' ')).toThrow(OptionsError);
  });
});
