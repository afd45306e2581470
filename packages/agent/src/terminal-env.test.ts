import { describe, expect, it } from 'vitest';
import { forwardedEnvNames, terminalEnv } from './terminal-env.js';

const gatewayEnv = {
  PATH: '/usr/bin',
  HOME: '/home/gw',
  LANG: 'C.UTF-8',
  OPENAI_API_KEY: 'sk-secret',
  WEBHOOK_SECRET: 'hush',
  GH_TOKEN: 'ghp_token',
  DOCKER_HOST: 'unix:///run/docker.sock',
  SSH_AUTH_SOCK: '/tmp/agent.sock',
};

describe('terminalEnv', () => {
  it('passes only the base allowlist to local commands', () => {
    expect(terminalEnv(gatewayEnv, { backend: 'local' })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/gw',
      LANG: 'C.UTF-8',
    });
  });

  it('passes a forge token only when env_allowlist lists it', () => {
    expect(
      terminalEnv(gatewayEnv, { backend: 'local', env_allowlist: ['GH_TOKEN', 'GH_HOST'] }),
    ).toMatchObject({
      GH_TOKEN: 'ghp_token',
    });
    expect(
      terminalEnv(gatewayEnv, { backend: 'local', env_allowlist: ['GH_HOST'] }),
    ).not.toHaveProperty('GH_TOKEN');
  });

  it('never passes the gateway secrets that are not listed', () => {
    const env = terminalEnv(gatewayEnv, { backend: 'docker', env_allowlist: ['GH_TOKEN'] });
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(env).not.toHaveProperty('WEBHOOK_SECRET');
  });

  it('gives the docker and ssh clients what they need to connect', () => {
    expect(terminalEnv(gatewayEnv, { backend: 'docker' })).toHaveProperty('DOCKER_HOST');
    expect(terminalEnv(gatewayEnv, { backend: 'ssh' })).toHaveProperty('SSH_AUTH_SOCK');
    expect(terminalEnv(gatewayEnv, { backend: 'local' })).not.toHaveProperty('SSH_AUTH_SOCK');
  });
});

describe('forwardedEnvNames', () => {
  it('forwards the set allowlist names into docker only', () => {
    const terminal = { backend: 'docker' as const, env_allowlist: ['GH_TOKEN', 'GLAB'] };
    expect(forwardedEnvNames(terminalEnv(gatewayEnv, terminal), terminal)).toEqual(['GH_TOKEN']);
    expect(forwardedEnvNames(gatewayEnv, { backend: 'ssh', env_allowlist: ['GH_TOKEN'] })).toEqual(
      [],
    );
  });
});
