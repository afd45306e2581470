import { describe, expect, it } from 'vitest';
import { parseConfig } from './config/load.js';
import { outgoingRedactor, redactOutgoing } from './outgoing-redaction.js';
import { REDACTED } from './redaction.js';

describe('outgoingRedactor', () => {
  const parsed = parseConfig({
    platforms: {
      webhook: {
        extra: { host: '127.0.0.1', routes: { r: { secret: 'INSECURE_NO_AUTH' } } },
      },
    },
  });
  // The agent plugin's key, as the loaded plugin would have validated it.
  const config = { ...parsed, agent: { ...parsed.agent, api_key_env: 'LLM_CREDENTIAL' } };
  const route = config.platforms.webhook.extra.routes.r;
  if (!route) throw new Error('no route');

  it('takes the variable an api_key_env names, credentials and credential-named variables, not the switch or other variables', () => {
    const redactor = outgoingRedactor(
      config,
      route,
      { GH_TOKEN: 'installation-token-123' },
      {
        LLM_CREDENTIAL: 'llm-credential-value',
        SERVICE_TOKEN: 'service-token-value',
        HOME: '/home/reviewer',
      },
    );
    const { answer, lineComments, redactions } = redactOutgoing(
      'llm-credential-value service-token-value INSECURE_NO_AUTH /home/reviewer',
      [{ path: 'a.ts', line: 1, body: 'installation-token-123' }],
      redactor,
    );
    expect(answer).toBe(`${REDACTED} ${REDACTED} INSECURE_NO_AUTH /home/reviewer`);
    expect(lineComments).toEqual([{ path: 'a.ts', line: 1, body: REDACTED }]);
    expect(redactions).toBe(3);
  });

  it('redacts the code a line comment suggests, not only its body', () => {
    const redactor = outgoingRedactor(config, route, { GH_TOKEN: 'installation-token-123' }, {});
    const { lineComments, redactions } = redactOutgoing(
      '',
      [
        {
          path: 'a.ts',
          line: 2,
          start_line: 1,
          body: 'inline the token',
          suggestion: 'const token = "installation-token-123";',
        },
      ],
      redactor,
    );
    expect(lineComments[0]?.suggestion).toBe(`const token = "${REDACTED}";`);
    expect(lineComments[0]?.body).toBe('inline the token');
    expect(redactions).toBe(1);
  });

  it('keeps a config’s secrets until a reload, and takes each attempt’s own credentials', () => {
    const env = { SERVICE_TOKEN: 'service-token-value' };
    const first = outgoingRedactor(config, route, { GH_TOKEN: 'credential-of-first' }, env);
    const second = outgoingRedactor(config, route, { GH_TOKEN: 'credential-of-second' }, env);
    expect(first.redact('credential-of-second service-token-value').text).toBe(
      `credential-of-second ${REDACTED}`,
    );
    expect(second.redact('credential-of-second').text).toBe(REDACTED);

    // A reload makes a new config object: its new secret is redacted from the next attempt on.
    const reloaded = { ...config, agent: { ...config.agent, api_key: 'reloaded-api-key' } };
    const afterReload = outgoingRedactor(reloaded, route, {}, env);
    expect(afterReload.redact('reloaded-api-key service-token-value').text).toBe(
      `${REDACTED} ${REDACTED}`,
    );
    expect(first.redact('reloaded-api-key').text).toBe('reloaded-api-key');
  });
});
