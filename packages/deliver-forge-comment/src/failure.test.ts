import { describe, expect, it } from 'vitest';
import { ALTFORGE_PROFILE } from './altforge-cli.js';
import { describeCliFailure, stderrSummary, type FailureContext } from './failure.js';
import { FORGE_PROFILE } from './forge-cli.js';
import { GH_STDERR } from './test-support/fake-cli.js';

const forge: FailureContext = {
  profile: FORGE_PROFILE,
  cli: 'gh',
  host: 'github.com',
  timeoutS: 60,
  subject: 'pull request #2 of o/r',
  secrets: ['ghp_topsecret'],
};

const altforge: FailureContext = {
  ...forge,
  profile: ALTFORGE_PROFILE,
  cli: 'glab',
  host: 'gitlab.com',
  subject: 'merge request !1 of g/p',
  secrets: [],
};

const exit = (stderr: string, exitCode = 1) =>
  ({ kind: 'exit', exitCode, signal: undefined, stderr }) as const;

describe('describeCliFailure', () => {
  it('says the CLI is not on PATH and which key to set', () => {
    expect(describeCliFailure({ kind: 'spawn-error', code: 'ENOENT' }, forge)).toEqual({
      reason: 'cli-not-installed',
      message: 'forge CLI "gh" not found on PATH; install it or set platforms.forge.cli',
    });
    expect(
      describeCliFailure({ kind: 'spawn-error', code: 'ENOENT' }, { ...forge, cli: '/opt/gh' })
        .message,
    ).toBe('forge CLI "/opt/gh" not found; install it or set platforms.forge.cli');
    expect(describeCliFailure({ kind: 'spawn-error', code: 'EACCES' }, forge).message).toContain(
      'could not be started (EACCES)',
    );
  });

  it.each([GH_STDERR.notLoggedIn, GH_STDERR.badCredentials])(
    'reads %j as not authenticated',
    (stderr) => {
      const { reason, message } = describeCliFailure(exit(stderr, 4), forge);
      expect(reason).toBe('not-authenticated');
      expect(message).toContain('run "gh auth login"');
      expect(message).toContain('set platforms.forge.token');
      expect(message).toContain(stderr.split('\n')[0]);
    },
  );

  it.each([GH_STDERR.repoNotFound, GH_STDERR.prNotFound])(
    "keeps gh's own words for %j",
    (stderr) => {
      const { reason, message } = describeCliFailure(exit(stderr), forge);
      expect(reason).toBe('not-found');
      expect(message).toContain('pull request #2 of o/r was not found on github.com');
      expect(message).toContain(stderr.trim());
    },
  );

  it('says after how many seconds it timed out and which key raises it', () => {
    expect(describeCliFailure({ kind: 'timeout' }, forge)).toEqual({
      reason: 'timeout',
      message:
        'gh pr comment for pull request #2 of o/r timed out after 60 s; raise platforms.forge.timeout_s if github.com is slow',
    });
  });

  it('gives the exit code and the end of stderr for anything else', () => {
    const { reason, message } = describeCliFailure(exit('something broke\nbadly\n', 2), forge);
    expect(reason).toBe('cli-failed');
    expect(message).toBe(
      'gh pr comment for pull request #2 of o/r exited with code 2: something broke badly',
    );
    expect(
      describeCliFailure(
        { kind: 'exit', exitCode: undefined, signal: 'SIGKILL', stderr: '' },
        forge,
      ).message,
    ).toBe('gh pr comment for pull request #2 of o/r was killed by SIGKILL');
  });

  it('never repeats the token, even when the CLI prints it', () => {
    const { message } = describeCliFailure(exit('request with token ghp_topsecret failed'), forge);
    expect(message).not.toContain('ghp_topsecret');
    expect(message).toContain('****');
  });

  it('reads glab failures the same way', () => {
    expect(
      describeCliFailure(
        exit('GET https://gitlab.com/api/v4/projects/g%2Fp: 401 {message: 401 Unauthorized}'),
        altforge,
      ),
    ).toMatchObject({
      reason: 'not-authenticated',
    });
    expect(describeCliFailure(exit('404 Project Not Found'), altforge).message).toBe(
      "merge request !1 of g/p was not found on gitlab.com (check the route's deliver_extra, and that the token can see the repository): 404 Project Not Found",
    );
    expect(describeCliFailure({ kind: 'spawn-error', code: 'ENOENT' }, altforge).message).toBe(
      'altforge CLI "glab" not found on PATH; install it or set platforms.altforge.cli',
    );
    expect(
      describeCliFailure(exit('aborted... Note has an empty message'), altforge).message,
    ).toContain('upgrade glab');
  });
});

describe('stderrSummary', () => {
  it('keeps the last characters of a long stderr', () => {
    const summary = stderrSummary(`${'x'.repeat(1000)}END`, [], 100);
    expect(summary).toHaveLength(101);
    expect(summary.endsWith('END')).toBe(true);
  });
});
