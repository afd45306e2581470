import { describe, expect, it } from 'vitest';
import { BadBodyError, parsePayload } from './body.js';

function status(contentType: string | undefined, body: string | Buffer): number | 'ok' {
  try {
    parsePayload(contentType, Buffer.isBuffer(body) ? body : Buffer.from(body));
    return 'ok';
  } catch (error) {
    if (error instanceof BadBodyError) return error.status;
    throw error;
  }
}

describe('parsePayload', () => {
  it('parses JSON objects under application/json with or without a charset, and without a type', () => {
    expect(parsePayload('application/json; charset=utf-8', Buffer.from('{"a":1}'))).toEqual({
      a: 1,
    });
    expect(parsePayload(undefined, Buffer.from(' {"a":2} '))).toEqual({ a: 2 });
  });

  it('parses the forge form encoding', () => {
    const body = `payload=${encodeURIComponent('{"zen":"x y"}')}`;
    expect(parsePayload('application/x-www-form-urlencoded', Buffer.from(body))).toEqual({
      zen: 'x y',
    });
    expect(status('application/x-www-form-urlencoded', 'other=1')).toBe(400);
  });

  it('answers 400 to arrays, scalars, null, empty and malformed bodies', () => {
    for (const body of ['[]', '1', '"s"', 'null', '', '{"a":', 'true'])
      expect(status('application/json', body)).toBe(400);
  });

  it('answers 415 to other content types', () => {
    expect(status('text/plain', '{}')).toBe(415);
    expect(status('multipart/form-data; boundary=x', '{}')).toBe(415);
  });

  it('decodes bytes that are not valid UTF-8 leniently', () => {
    const body = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(parsePayload('application/json', body)).toEqual({ t: '\uFFFD' });
  });
});

describe('nesting', () => {
  it('refuses JSON nested deeper than the limit, and counts brackets inside strings as text', async () => {
    const { MAX_JSON_DEPTH, jsonDepth } = await import('./body.js');
    expect(jsonDepth('{"a":"[[[[{{{{","b":[{"c":1}]}')).toBe(3);
    const deep = `{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    expect(status('application/json', deep)).toBe(400);
    const fine = `{"a":${'['.repeat(MAX_JSON_DEPTH - 2)}${']'.repeat(MAX_JSON_DEPTH - 2)}}`;
    expect(status('application/json', fine)).toBe('ok');
  });
});
