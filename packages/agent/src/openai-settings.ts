/**
 * The `openai` runner's settings, read from the merged agent block: what is missing is said with
 * its key path, and the API key comes from the environment variable the config names.
 */
import type { AgentConfig } from '@webhook-gateway/core';
import { agentSettings, type TerminalConfig } from './agent-settings.js';
import type { Prices } from './spending.js';

/** What one `openai` run needs, checked. */
export interface OpenAISettings {
  baseUrl: string;
  model: string;
  /** Undefined when `agent.api_key_env` is not set (local servers such as Ollama need none). */
  apiKey: string | undefined;
  maxTurns: number;
  temperature: number | undefined;
  systemPrompt: string | undefined;
  terminal: TerminalConfig;
  /** Tokens the delivery may spend over all its attempts; undefined: no limit. */
  maxTokensPerDelivery: number | undefined;
  /** Undefined when `agent.prices` is not set: no cost is computed. */
  prices: Prices | undefined;
}

/**
 * The problems of an agent block that runs `openai`, each naming its key; empty when it can run.
 * The API key is not looked at here: it is read from the environment at run time.
 */
export function openAIConfigProblems(block: AgentConfig): string[] {
  const agent = agentSettings(block);
  const problems: string[] = [];
  if (!agent.base_url) {
    problems.push(
      'agent.runner is "openai" but agent.base_url is not set (e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1)',
    );
  }
  if (!agent.model)
    problems.push('agent.runner is "openai" but agent.model is not set (e.g. gpt-4o-mini)');
  const terminal = agent.terminal;
  if (terminal.enabled && terminal.backend === 'docker' && !terminal.container && !terminal.image) {
    problems.push(
      'agent.terminal.backend is "docker" but neither agent.terminal.container nor agent.terminal.image is set',
    );
  }
  if (terminal.enabled && terminal.backend === 'ssh' && !terminal.host) {
    problems.push('agent.terminal.backend is "ssh" but agent.terminal.host is not set');
  }
  return problems;
}

/** The API key from `process.env[agent.api_key_env]`; the error names the variable, never a value. */
function apiKeyFrom(block: AgentConfig, env: NodeJS.ProcessEnv): string | undefined {
  const name = agentSettings(block).api_key_env;
  if (!name) return undefined;
  const value = env[name];
  if (!value) {
    throw new Error(
      `agent.api_key_env names the environment variable ${name}, but it is ${value === undefined ? 'not set' : 'empty'}: set it for the gateway, or remove agent.api_key_env for a server that needs no key`,
    );
  }
  return value;
}

/** Checks the agent block and reads the key; throws one error listing what to fix. */
export function openAISettings(block: AgentConfig, env: NodeJS.ProcessEnv): OpenAISettings {
  const problems = openAIConfigProblems(block);
  const agent = agentSettings(block);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return {
    baseUrl: agent.base_url as string,
    model: agent.model as string,
    apiKey: apiKeyFrom(block, env),
    maxTurns: agent.max_turns,
    temperature: agent.temperature,
    systemPrompt: agent.system_prompt,
    terminal: agent.terminal,
    maxTokensPerDelivery: agent.max_tokens_per_delivery,
    prices: agent.prices,
  };
}
