import { describe, expect, it } from 'vitest';
import { agentConfig } from './test-support/run-request.js';
import { terminalArgv } from './terminal-argv.js';

const terminal = (settings: Record<string, unknown>) =>
  agentConfig({ terminal: settings }).terminal;

describe('terminalArgv', () => {
  it('runs a local command through bash -c', () => {
    expect(terminalArgv('gh pr diff 2 | head', terminal({}), [])).toEqual({
      file: 'bash',
      args: ['-c', 'gh pr diff 2 | head'],
    });
  });

  it('execs into a named container', () => {
    expect(terminalArgv('ls', terminal({ backend: 'docker', container: 'sandbox' }), [])).toEqual({
      file: 'docker',
      args: ['exec', '-i', 'sandbox', 'sh', '-c', 'ls'],
    });
  });

  it('runs a throwaway container of an image when no container is named', () => {
    expect(terminalArgv('ls', terminal({ backend: 'docker', image: 'alpine:3' }), [])).toEqual({
      file: 'docker',
      args: ['run', '--rm', '-i', 'alpine:3', 'sh', '-c', 'ls'],
    });
  });

  it('prefers the container over the image', () => {
    const argv = terminalArgv(
      'ls',
      terminal({ backend: 'docker', container: 'c', image: 'i' }),
      [],
    );
    expect(argv.args.slice(0, 3)).toEqual(['exec', '-i', 'c']);
  });

  it('passes allowlisted variables into the container by name only', () => {
    expect(
      terminalArgv('gh pr diff 2', terminal({ backend: 'docker', container: 'c' }), ['GH_TOKEN']),
    ).toEqual({
      file: 'docker',
      args: ['exec', '-i', '-e', 'GH_TOKEN', 'c', 'sh', '-c', 'gh pr diff 2'],
    });
  });

  it('runs on a host over ssh without prompting', () => {
    expect(
      terminalArgv('uname -a', terminal({ backend: 'ssh', host: 'agent@sandbox' }), []),
    ).toEqual({
      file: 'ssh',
      args: ['-o', 'BatchMode=yes', 'agent@sandbox', 'uname -a'],
    });
  });

  it('names the missing key when a backend is not fully configured', () => {
    expect(() => terminalArgv('ls', terminal({ backend: 'docker' }), [])).toThrow(
      /agent\.terminal\.container/,
    );
    expect(() => terminalArgv('ls', terminal({ backend: 'ssh' }), [])).toThrow(
      /agent\.terminal\.host/,
    );
  });
});
