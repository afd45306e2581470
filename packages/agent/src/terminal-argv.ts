/** The program and arguments that run one terminal command on the configured backend. */
import { quote } from 'shell-quote';
import type { TerminalConfig } from './agent-settings.js';

/** A program to spawn, without a shell in between. */
export interface Argv {
  file: string;
  args: string[];
}

/**
 * How to run `command` through `terminal.backend`:
 * - `local`: `bash -c <command>` (not a login shell: a login profile would reset PATH);
 * - `docker`: `docker exec -i <container> sh -c <command>`, or `docker run --rm -i <image> sh -c …`;
 *   each `forwardEnv` name is passed with `-e NAME`, so its value never shows in the argv;
 * - `ssh`: `ssh -o BatchMode=yes <host> <command>` (the remote login shell runs it).
 *
 * @example terminalArgv('ls', { backend: 'ssh', host: 'box', ... }, [])
 * // { file: 'ssh', args: ['-o', 'BatchMode=yes', 'box', 'ls'] }
 */
export function terminalArgv(
  command: string,
  terminal: TerminalConfig,
  forwardEnv: readonly string[],
): Argv {
  return backendArgv({ shell: command }, terminal, forwardEnv);
}

/**
 * How to run allowlisted `words` without a shell: the program and its arguments as they are
 * (`docker exec` passes them on as an argv too); over `ssh`, whose remote side always has a shell,
 * each word is quoted so it arrives as one word and nothing in it is shell syntax.
 *
 * @example wordsArgv(['gh', 'pr', 'diff', '2'], { backend: 'local', ... }, []) // { file: 'gh', args: ['pr', 'diff', '2'] }
 */
export function wordsArgv(
  words: readonly string[],
  terminal: TerminalConfig,
  forwardEnv: readonly string[],
): Argv {
  return backendArgv({ words }, terminal, forwardEnv);
}

function backendArgv(
  run: { shell: string } | { words: readonly string[] },
  terminal: TerminalConfig,
  forwardEnv: readonly string[],
): Argv {
  const inner = 'shell' in run ? ['sh', '-c', run.shell] : [...run.words];
  switch (terminal.backend) {
    case 'local':
      if ('words' in run) return { file: run.words[0] ?? '', args: run.words.slice(1) };
      return { file: 'bash', args: ['-c', run.shell] };
    case 'docker': {
      const env = forwardEnv.flatMap((name) => ['-e', name]);
      if (terminal.container) {
        return {
          file: 'docker',
          args: ['exec', '-i', ...env, terminal.container, ...inner],
        };
      }
      if (terminal.image) {
        return {
          file: 'docker',
          args: ['run', '--rm', '-i', ...env, terminal.image, ...inner],
        };
      }
      throw new Error(
        'agent.terminal.backend is "docker" but neither agent.terminal.container nor agent.terminal.image is set',
      );
    }
    case 'ssh':
      if (!terminal.host)
        throw new Error('agent.terminal.backend is "ssh" but agent.terminal.host is not set');
      return {
        file: 'ssh',
        args: [
          '-o',
          'BatchMode=yes',
          terminal.host,
          'shell' in run ? run.shell : quote([...run.words]),
        ],
      };
  }
}
