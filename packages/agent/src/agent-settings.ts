/**
 * The agent plugin's keys of the `agent:` block (and of a route's `agent:`): the runners'
 * settings. Core owns `runner` and `timeout_s`; these are validated with the rest of the config.
 */
import { z } from 'zod';
import type { AgentConfig, AgentKeys } from '@webhook-gateway/core';
import { pricesSchema } from './spending.js';

const terminalFields = {
  enabled: z.boolean(),
  backend: z.enum(['local', 'docker', 'ssh']),
  container: z.string().min(1),
  image: z.string().min(1),
  host: z.string().min(1),
  timeout_s: z.number().positive(),
  max_output_bytes: z.int().positive(),
  env_allowlist: z.array(z.string()),
  /** Word patterns of the commands the agent may run (`gh pr diff *`); set, no shell is used. */
  allow: z.array(z.string().trim().min(1, 'a pattern cannot be empty')),
  /** With `allow`: `gh`/`glab` may name repositories other than the delivery's. */
  allow_other_repos: z.boolean(),
};

const terminalSchema = z.strictObject({
  enabled: terminalFields.enabled.default(true),
  backend: terminalFields.backend.default('local'),
  container: terminalFields.container.optional(),
  image: terminalFields.image.optional(),
  host: terminalFields.host.optional(),
  timeout_s: terminalFields.timeout_s.default(120),
  max_output_bytes: terminalFields.max_output_bytes.default(16_384),
  env_allowlist: terminalFields.env_allowlist.optional(),
  allow: terminalFields.allow.optional(),
  allow_other_repos: terminalFields.allow_other_repos.default(false),
});

const settings = {
  command: z.array(z.string()).min(1).optional(),
  base_url: z.url().optional(),
  model: z.string().min(1).optional(),
  api_key_env: z.string().min(1).optional(),
  max_turns: z.int().positive().default(20),
  temperature: z.number().min(0).max(2).optional(),
  system_prompt: z.string().optional(),
  terminal: terminalSchema.prefault({}),
  skills_dirs: z.array(z.string()).default([]),
  /** Tokens one delivery may spend over all its attempts (runners that count tokens: `openai`). */
  max_tokens_per_delivery: z.int().positive().optional(),
  /** Money per 1,000 tokens: the delivery's cost is journaled, and counted in the metrics. */
  prices: pricesSchema.optional(),
};

/** The agent plugin's keys; a route's overrides have no defaults, so only what it sets wins. */
export const agentKeys = {
  settings,
  overrides: {
    command: settings.command,
    base_url: settings.base_url,
    model: settings.model,
    api_key_env: settings.api_key_env,
    max_turns: settings.max_turns.removeDefault().optional(),
    temperature: settings.temperature,
    system_prompt: settings.system_prompt,
    terminal: z.strictObject(terminalFields).partial().optional(),
    skills_dirs: settings.skills_dirs.removeDefault().optional(),
    max_tokens_per_delivery: settings.max_tokens_per_delivery,
    prices: settings.prices,
  },
} satisfies AgentKeys;

/** An agent block as the runners read it: core's keys and these, validated when config was read. */
export type AgentSettings = AgentConfig & z.output<z.ZodObject<typeof settings>>;
export type TerminalConfig = AgentSettings['terminal'];

/** The agent block with this plugin's keys typed (they were validated with the config). */
export function agentSettings(agent: AgentConfig): AgentSettings {
  return agent as AgentSettings;
}
