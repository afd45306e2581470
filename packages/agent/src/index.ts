/** @webhook-gateway/agent: the agent runners (dry-run, command, openai) on the `run` hook. */
import { definePlugin, type GatewayPlugin } from '@webhook-gateway/core';
import { runCommand } from './command-runner.js';
import { runDryRun } from './dry-run.js';
import { runOpenAI, type OpenAIRunnerDeps } from './openai-runner.js';
import { localTerminalWarning, openAISetupProblems } from './setup-checks.js';

export const AGENT_PLUGIN_NAME = '@webhook-gateway/agent';

export { runOpenAI, type OpenAIRunnerDeps } from './openai-runner.js';
export type { RetryPolicy } from './retry.js';

/**
 * The agent plugin with swapped dependencies (tests: a fast retry policy, a given env).
 *
 * @example createAgentPlugin({ retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 50 } })
 */
export function createAgentPlugin(deps: OpenAIRunnerDeps = {}): GatewayPlugin<undefined> {
  return definePlugin({
    name: AGENT_PLUGIN_NAME,
    setup({ hooks, config, log, serving }) {
      const problems = openAISetupProblems(config);
      if (problems.length > 0) throw new Error(problems.join('\n'));
      if (serving) {
        const warning = localTerminalWarning(config);
        if (warning) log.warn(warning);
      }
      hooks.run.tapPromise(AGENT_PLUGIN_NAME, async (request) => {
        switch (request.agent.runner) {
          case 'dry-run':
            return runDryRun(request);
          case 'command':
            return runCommand(request);
          case 'openai':
            return runOpenAI(request, deps);
          default:
            return undefined;
        }
      });
    },
  });
}

export default createAgentPlugin();
