import { describe, expect, it } from 'vitest';
import { requireConnection } from './require-connection.js';

describe('requireConnection', () => {
  it('gives the connection when every key is set', () => {
    const connection = { apiBase: 'https://gitea.example.com/api/v1', token: 't' };
    expect(requireConnection({ ok: true, connection }, 'gitea_review', 'platforms.gitea')).toBe(
      connection,
    );
  });

  it('throws an error not to be retried that names the missing key', () => {
    const attempt = () =>
      requireConnection(
        { ok: false, missing: 'token' },
        'bitbucket_comment',
        'platforms.bitbucket',
      );
    expect(attempt).toThrow(
      'bitbucket_comment: cannot deliver: platforms.bitbucket.token is not set',
    );
    expect(attempt).toThrow(expect.objectContaining({ retryable: false }));
  });
});
