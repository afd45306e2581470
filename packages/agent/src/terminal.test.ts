import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTerminalCommand, type TerminalRunOptions } from './terminal.js';
import { terminalArgv } from './terminal-argv.js';
import { agentConfig } from './test-support/run-request.js';
import { cleanup, tempDir, writeScript } from './test-support/temp.js';

afterEach(cleanup);

const PATH = process.env.PATH ?? '/usr/bin:/bin';

async function options(
  terminal: Record<string, unknown> = {},
  env: Record<string, string> = { PATH },
) {
  return {
    terminal: agentConfig({ terminal }).terminal,
    cwd: await tempDir(),
    env,
    signal: new AbortController().signal,
  } satisfies TerminalRunOptions;
}

/** A fake `docker` or `ssh` that records its argv (NUL-separated) and runs its last argument locally. */
async function fakeClient(name: string): Promise<{ bin: string; argv: () => Promise<string[]> }> {
  const bin = await tempDir();
  const record = path.join(bin, `${name}.argv`);
  await writeScript(
    bin,
    name,
    `for arg in "$@"; do printf '%s\\0' "$arg"; done > '${record}'\nfor last; do :; done\nexec sh -c "$last"`,
  );
  return { bin, argv: async () => (await fs.readFile(record, 'utf8')).split('\0').slice(0, -1) };
}

describe('runTerminalCommand', () => {
  it('returns the exit code, stdout and stderr', async () => {
    const outcome = await runTerminalCommand('echo out; echo err >&2; exit 3', await options());
    expect(outcome).toMatchObject({
      exitCode: 3,
      stdout: { text: 'out\n' },
      stderr: { text: 'err\n' },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('runs in the given work directory', async () => {
    const run = await options();
    const outcome = await runTerminalCommand('pwd', run);
    expect(await fs.realpath(outcome.stdout.text.trim())).toBe(await fs.realpath(run.cwd));
  });

  it('passes only the env it is given, never the gateway process env', async () => {
    process.env.WEBHOOK_TEST_SECRET = 'do-not-leak';
    try {
      const outcome = await runTerminalCommand('env', await options({}, { PATH, LANG: 'C' }));
      expect(outcome.stdout.text).toContain('LANG=C');
      expect(outcome.stdout.text).not.toContain('WEBHOOK_TEST_SECRET');
      expect(outcome.stdout.text).not.toContain('do-not-leak');
    } finally {
      delete process.env.WEBHOOK_TEST_SECRET;
    }
  });

  it('cuts long output to max_output_bytes with a note', async () => {
    const outcome = await runTerminalCommand(
      "head -c 5000 /dev/zero | tr '\\0' a",
      await options({ max_output_bytes: 100 }),
    );
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.text).toBe('a'.repeat(100));
    expect(outcome.stdout.note).toBe('cut: showing the first 100 of 5000 bytes');
  });

  it('kills a command, pipeline and all, when it passes timeout_s', async () => {
    const started = Date.now();
    const outcome = await runTerminalCommand(
      'sleep 5; echo late',
      await options({ timeout_s: 0.3 }),
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome.exitCode).toBeNull();
    expect(outcome.error).toMatch(/timed out after 0\.3 s.*agent\.terminal\.timeout_s/);
    expect(outcome.stdout.text).toBe('');
  });

  it('kills the command and rejects when the run is aborted', async () => {
    const abort = new AbortController();
    const run = { ...(await options()), signal: abort.signal };
    setTimeout(() => abort.abort(new Error('gateway stopping')), 100);
    const started = Date.now();
    await expect(runTerminalCommand('sleep 5; echo late', run)).rejects.toThrow('gateway stopping');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says when the backend program is missing', async () => {
    const empty = await tempDir();
    const outcome = await runTerminalCommand(
      'ls',
      await options({ backend: 'docker', container: 'c' }, { PATH: empty }),
    );
    expect(outcome.exitCode).toBeNull();
    expect(outcome.error).toMatch(/"docker" was not found on PATH/);
  });

  it('runs through docker exec into the named container', async () => {
    const docker = await fakeClient('docker');
    const terminal = { backend: 'docker', container: 'sandbox', env_allowlist: ['GH_TOKEN'] };
    const run = await options(terminal, { PATH: `${docker.bin}:${PATH}`, GH_TOKEN: 'ghp_x' });
    const outcome = await runTerminalCommand('echo "token=$GH_TOKEN"', run);
    expect(outcome).toMatchObject({ exitCode: 0, stdout: { text: 'token=ghp_x\n' } });
    expect(await docker.argv()).toEqual(
      terminalArgv('echo "token=$GH_TOKEN"', run.terminal, ['GH_TOKEN']).args,
    );
    expect(await docker.argv()).toEqual([
      'exec',
      '-i',
      '-e',
      'GH_TOKEN',
      'sandbox',
      'sh',
      '-c',
      'echo "token=$GH_TOKEN"',
    ]);
  });

  it('runs through docker run of an image', async () => {
    const docker = await fakeClient('docker');
    const run = await options(
      { backend: 'docker', image: 'alpine:3' },
      { PATH: `${docker.bin}:${PATH}` },
    );
    expect((await runTerminalCommand('echo hi', run)).stdout.text).toBe('hi\n');
    expect(await docker.argv()).toEqual(['run', '--rm', '-i', 'alpine:3', 'sh', '-c', 'echo hi']);
  });

  it('runs over ssh on the configured host', async () => {
    const ssh = await fakeClient('ssh');
    const run = await options(
      { backend: 'ssh', host: 'agent@sandbox' },
      { PATH: `${ssh.bin}:${PATH}` },
    );
    const outcome = await runTerminalCommand('echo remote; exit 2', run);
    expect(outcome).toMatchObject({ exitCode: 2, stdout: { text: 'remote\n' } });
    expect(await ssh.argv()).toEqual([
      '-o',
      'BatchMode=yes',
      'agent@sandbox',
      'echo remote; exit 2',
    ]);
  });
});
