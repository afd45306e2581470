/** The program and arguments that run one terminal command on the configured backend. */
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
  switch (terminal.backend) {
    case 'local':
      return { file: 'bash', args: ['-c', command] };
    case 'docker': {
      const env = forwardEnv.flatMap((name) => ['-e', name]);
      if (terminal.container) {
        return {
          file: 'docker',
          args: ['exec', '-i', ...env, terminal.container, 'sh', '-c', command],
        };
      }
      if (terminal.image) {
        return {
          file: 'docker',
          args: ['run', '--rm', '-i', ...env, terminal.image, 'sh', '-c', command],
        };
      }
      throw new Error(
        'agent.terminal.backend is "docker" but neither agent.terminal.container nor agent.terminal.image is set',
      );
    }
    case 'ssh':
      if (!terminal.host)
        throw new Error('agent.terminal.backend is "ssh" but agent.terminal.host is not set');
      return { file: 'ssh', args: ['-o', 'BatchMode=yes', terminal.host, command] };
  }
}
