/**
 * What the agent plugin checks as the gateway starts: every agent block that runs `openai` (the
 * global one and each route's merged one) can run, and whether the terminal is unsandboxed on a
 * public bind.
 */
import { agentForRoute, isLoopbackHost, type GatewayConfig } from '@webhook-gateway/core';
import { agentSettings, type AgentSettings } from './agent-settings.js';
import { openAIConfigProblems } from './openai-settings.js';

/** The agent blocks in effect: the global one (dynamic subscriptions use it) and each route's. */
function effectiveAgents(
  config: GatewayConfig,
): { where: string | undefined; agent: AgentSettings }[] {
  return [
    { where: undefined, agent: agentSettings(config.agent) },
    ...Object.entries(config.platforms.webhook.extra.routes).map(([name, route]) => ({
      where: name,
      agent: agentSettings(agentForRoute(config.agent, route.agent)),
    })),
  ];
}

/** Problems of the `openai` agent blocks, each prefixed with the route it concerns. */
export function openAISetupProblems(config: GatewayConfig): string[] {
  const problems = new Set<string>();
  for (const { where, agent } of effectiveAgents(config)) {
    if (agent.runner !== 'openai') continue;
    for (const problem of openAIConfigProblems(agent)) {
      problems.add(where === undefined ? problem : `route "${where}": ${problem}`);
    }
  }
  return [...problems];
}

/**
 * The warning for an `openai` agent whose terminal runs commands on this machine while the
 * gateway listens on a non-loopback address; undefined when there is nothing to warn about.
 */
export function localTerminalWarning(config: GatewayConfig): string | undefined {
  const host = config.platforms.webhook.extra.host;
  if (isLoopbackHost(host)) return undefined;
  const exposed = effectiveAgents(config).filter(
    ({ agent }) =>
      agent.runner === 'openai' && agent.terminal.enabled && agent.terminal.backend === 'local',
  );
  if (exposed.length === 0) return undefined;
  const routes = exposed.flatMap(({ where }) => (where === undefined ? [] : [where]));
  const scope = routes.length > 0 ? ` (routes: ${routes.join(', ')})` : '';
  return (
    `the agent's terminal tool runs commands on this machine (agent.terminal.backend: local)${scope} ` +
    `while the gateway listens on ${host}, which is not a loopback address; webhook payloads are ` +
    'attacker-controlled, so choose docker or ssh via agent.terminal.backend to sandbox the agent'
  );
}
