import { ConfigError, StartupError } from '@webhook-gateway/core';
import { PluginError } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import { formatProblem, keyPathOf, problemsFromError } from './config-problems.js';

describe('keyPathOf', () => {
  it('prefers the key path a message names in trailing parentheses', () => {
    expect(keyPathOf('port 8644 is in use (platforms.webhook.extra.port)')).toBe(
      'platforms.webhook.extra.port',
    );
  });

  it('falls back to the route a message starts with', () => {
    expect(
      keyPathOf('route "ci" has no secret: set platforms.webhook.extra.routes.ci.secret or …'),
    ).toBe('platforms.webhook.extra.routes.ci');
  });

  it('else takes the first key path mentioned', () => {
    expect(keyPathOf('agent.runner is "openai" but agent.model is not set')).toBe('agent.runner');
  });

  it('has none for a message without one', () => {
    expect(keyPathOf('something broke')).toBeUndefined();
  });
});

describe('problemsFromError', () => {
  it('keeps the problems of a ConfigError as they are', () => {
    const problems = [{ path: 'agent.max_turns', message: 'Too small' }];
    expect(problemsFromError(new ConfigError(problems))).toEqual(problems);
  });

  it('splits a multi-line startup refusal into one problem per line', () => {
    const error = new StartupError(
      'route "a" has no secret: set x\nroute "b" uses INSECURE_NO_AUTH but … (platforms.webhook.extra.host)',
    );
    expect(problemsFromError(error).map((p) => p.path)).toEqual([
      'platforms.webhook.extra.routes.a',
      'platforms.webhook.extra.host',
    ]);
  });

  it('files a plugin error without a key path under plugins', () => {
    const [problem] = problemsFromError(new PluginError('@acme/p', 'is not installed'));
    expect(problem).toEqual({ path: 'plugins', message: 'plugin @acme/p: is not installed' });
  });

  it('formats a problem as "path: message"', () => {
    expect(formatProblem({ path: 'store.kind', message: 'Invalid option' })).toBe(
      'store.kind: Invalid option',
    );
  });
});
