/**
 * @webhook-gateway/agent: the agent runners (dry-run, command, openai) on the `run` hook, and
 * what renders their prompt (skills, framing) on the `render` hook.
 */
import { definePlugin, lazyTap, type GatewayPlugin } from '@webhook-gateway/core';
import { agentKeys } from './agent-settings.js';
import { runDryRun } from './dry-run.js';
import type { OpenAIRunnerDeps } from './openai-runner.js';
import { tapRender, type RenderTapDeps } from './render-taps.js';
import { localTerminalWarning, openAISetupProblems } from './setup-checks.js';
import { pruneWorkDirs } from './work-dir.js';

export const AGENT_PLUGIN_NAME = '@webhook-gateway/agent';

export type { OpenAIRunnerDeps } from './openai-runner.js';

export { RENDER_STAGES, type RenderTapDeps } from './render-taps.js';
export type { RetryPolicy } from './retry.js';

/**
 * The agent plugin with swapped dependencies (tests: a fast retry policy, a given env, a fixed
 * nonce).
 *
 * @example createAgentPlugin({ retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 50 } })
 */
export function createAgentPlugin(
  deps: OpenAIRunnerDeps & RenderTapDeps = {},
): GatewayPlugin<undefined> {
  return definePlugin({
    name: AGENT_PLUGIN_NAME,
    provides: { runners: ['dry-run', 'command', 'openai'] },
    agent: agentKeys,
    setup({ hooks, config, log, serving, home }) {
      const problems = openAISetupProblems(config);
      if (problems.length > 0) throw new Error(problems.join('\n'));
      if (serving) {
        const warning = localTerminalWarning(config);
        if (warning) log.warn(warning);
      }
      tapRender(hooks.render, AGENT_PLUGIN_NAME, deps);
      hooks.run.for('dry-run').tapPromise(AGENT_PLUGIN_NAME, runDryRun);
      // The `command` and `openai` runners' modules (execa; the HTTP client, the tools) load at
      // their first run, so a gateway whose config uses neither never loads them.
      hooks.run.for('command').tapPromise(
        AGENT_PLUGIN_NAME,
        lazyTap(() => import('./command-runner.js'), 'runCommand'),
      );
      const openAIRunner = lazyTap(() => import('./openai-runner.js'), 'runOpenAI');
      hooks.run
        .for('openai')
        .tapPromise(AGENT_PLUGIN_NAME, (request) => openAIRunner(request, deps));
      // Work directories go with their journal rows: pruned after the same retention.
      const retentionMs = config.platforms.webhook.extra.retention_days * 86_400_000;
      let timer: NodeJS.Timeout | undefined;
      const prune = () =>
        pruneWorkDirs(home, retentionMs).catch((error: unknown) => {
          log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'could not prune work directories',
          );
          return 0;
        });
      return {
        async start() {
          if (!serving) return;
          await prune();
          timer = setInterval(() => void prune(), 3_600_000);
          timer.unref();
        },
        async stop() {
          clearInterval(timer);
        },
      };
    },
  });
}

export default createAgentPlugin();
