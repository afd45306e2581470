import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { parseConfig } from './load.js';

function problemsOf(raw: unknown): string[] {
  try {
    parseConfig(raw, {});
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('observability.otlp', () => {
  it('is off unless set', () => {
    expect(parseConfig({}, {}).observability).toEqual({});
  });

  it('takes a collector base URL, headers and a sample ratio (1 by default)', () => {
    const config = parseConfig(
      { observability: { otlp: { endpoint: 'http://collector:4318', headers: { 'x-key': 'k' } } } },
      {},
    );
    expect(config.observability.otlp).toEqual({
      endpoint: 'http://collector:4318',
      headers: { 'x-key': 'k' },
      sample_ratio: 1,
    });
  });

  it('names the key path of a bad endpoint, header or ratio', () => {
    expect(problemsOf({ observability: { otlp: { endpoint: 'collector:4318' } } })).toEqual([
      expect.stringMatching(
        /^observability\.otlp\.endpoint: expected the collector's http\(s\) base URL/,
      ),
    ]);
    expect(problemsOf({ observability: { otlp: { endpoint: 'ftp://collector' } } })[0]).toMatch(
      /^observability\.otlp\.endpoint: /,
    );
    const headers = problemsOf({
      observability: {
        otlp: { endpoint: 'http://c:4318', headers: { 'bad name': 'v', ok: 'line\nbreak' } },
      },
    });
    expect(headers).toEqual([
      expect.stringMatching(/^observability\.otlp\.headers\.ok: a header value cannot hold a line/),
      expect.stringMatching(
        /^observability\.otlp\.headers\.bad name: expected an HTTP header name/,
      ),
    ]);
    expect(
      problemsOf({ observability: { otlp: { endpoint: 'http://c:4318', sample_ratio: 2 } } })[0],
    ).toMatch(/^observability\.otlp\.sample_ratio: /);
    expect(problemsOf({ observability: { otlp: { endpont: 'http://c:4318' } } })[0]).toMatch(
      /^observability\.otlp/,
    );
  });
});
