import { describe, expect, it } from 'vitest';
import { REDACTED, createRedactor, secretsInEnv, secretsUnder } from './redaction.js';
import { TOKEN_SHAPE_SAMPLES } from './testing/token-shapes.js';

describe('createRedactor', () => {
  it.each(Object.entries(TOKEN_SHAPE_SAMPLES))(
    'replaces a %s token wherever it stands',
    (_, token) => {
      const { text, count } = createRedactor([]).redact(`env: TOKEN=${token}\nand (${token}).`);
      expect(text).not.toContain(token);
      expect(text).toBe(`env: TOKEN=${REDACTED}\nand (${REDACTED}).`);
      expect(count).toBe(2);
    },
  );

  it('replaces configured secrets exactly, the longest first, and counts each', () => {
    const redactor = createRedactor(['route-secret-1234', 'route-secret-1234-longer', 'short']);
    expect(redactor.redact('a route-secret-1234-longer b route-secret-1234 c short')).toEqual({
      text: `a ${REDACTED} b ${REDACTED} c short`,
      count: 2,
    });
  });

  it('keeps the word of a Bearer or token header, and leaves ordinary text alone', () => {
    const redactor = createRedactor([]);
    expect(redactor.redact('Authorization: Bearer abcdefghijklmnop1234').text).toBe(
      `Authorization: Bearer ${REDACTED}`,
    );
    const plain = 'Looks good: task-runner and sk-1 and ghp_short, AKIA too.';
    expect(redactor.redact(plain)).toEqual({ text: plain, count: 0 });
  });

  it('cuts an unterminated private key block to the end', () => {
    const { text } = createRedactor([]).redact('key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIE…');
    expect(text).toBe(`key:\n${REDACTED}`);
  });
});

describe('secretsUnder and secretsInEnv', () => {
  it('finds the values under secret-named keys at any depth, lists included', () => {
    const config = {
      platforms: {
        forge: { token: 'forge-token-value', host: 'github.com' },
        webhook: {
          extra: { secret: ['old-secret', 'new-secret'], routes: { r: { secret: 's1' } } },
        },
        messenger: { bot_token: 'bot-token-value', webhook_secret: 'hook' },
      },
      agent: { api_key_env: 'LLM_KEY', model: 'm' },
    };
    expect(secretsUnder(config).sort()).toEqual(
      ['bot-token-value', 'forge-token-value', 'hook', 'new-secret', 'old-secret', 's1'].sort(),
    );
  });

  it('takes the credential-named variables of an environment, not the others', () => {
    expect(
      secretsInEnv({
        GH_TOKEN: 'a',
        OPENAI_API_KEY: 'b',
        AWS_SECRET_ACCESS_KEY: 'c',
        DB_PASSWORD: 'd',
        PATH: '/usr/bin',
        HOME: '/home/x',
      }).sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
  });
});
