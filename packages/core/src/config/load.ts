/** Finds, reads, expands and validates `<home>/config.yaml` (or `--config FILE`). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigProblem } from '../errors.js';
import { expandEnv, type MissingEnv } from './env.js';
import { configSchema, type GatewayConfig } from './schema.js';

/** Where the gateway keeps its state: `--home`, else `WEBHOOK_GATEWAY_HOME`, else `~/.webhook-gateway`. */
export function resolveHome(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = flag ?? env.WEBHOOK_GATEWAY_HOME ?? path.join(os.homedir(), '.webhook-gateway');
  return path.resolve(chosen);
}

/** The config file a run uses: `--config FILE`, else `<home>/config.yaml`. */
export function resolveConfigPath(home: string, flag?: string): string {
  return flag ? path.resolve(flag) : path.join(home, 'config.yaml');
}

export interface LoadedConfig {
  config: GatewayConfig;
  /** Absolute path of the file read, or undefined when none exists (embedded defaults). */
  path: string | undefined;
  /** Directory plugins and relative paths resolve from. */
  dir: string;
}

/** Formats a dotted key path the way a config file reads: `platforms.webhook.extra.port`. */
export function formatKeyPath(keyPath: readonly PropertyKey[]): string {
  if (keyPath.length === 0) return '(root)';
  return keyPath
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** Turns zod issues into problems that name their key path. */
export function problemsFromZod(error: z.ZodError): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ path: formatKeyPath([...issue.path, key]), message: 'unknown key' });
      }
      continue;
    }
    problems.push({ path: formatKeyPath(issue.path), message: issue.message });
  }
  return problems;
}

/** Validates an already parsed config object (env references expanded first). */
export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const missing: MissingEnv[] = [];
  const expanded = expandEnv(raw ?? {}, env, missing);
  const problems: ConfigProblem[] = missing.map((m) => ({
    path: formatKeyPath(m.path),
    message: `environment variable ${m.name} is not set`,
  }));
  const result = configSchema.safeParse(expanded);
  if (!result.success) problems.push(...problemsFromZod(result.error));
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

const explorer = cosmiconfig('webhook-gateway', {
  loaders: {
    '.yaml': (_filepath: string, content: string): unknown => parseYaml(content),
    '.yml': (_filepath: string, content: string): unknown => parseYaml(content),
  },
  cache: false,
});

/**
 * Loads the config file. A missing `<home>/config.yaml` means the embedded defaults; a missing
 * `--config FILE` is an error.
 */
export async function loadConfig(options: {
  home: string;
  configFile?: string | undefined;
  env?: NodeJS.ProcessEnv;
}): Promise<LoadedConfig> {
  const file = resolveConfigPath(options.home, options.configFile);
  if (!fs.existsSync(file)) {
    if (options.configFile) {
      throw new ConfigError([{ path: file, message: 'config file not found' }]);
    }
    return { config: parseConfig({}, options.env), path: undefined, dir: options.home };
  }
  let raw: unknown;
  try {
    const result = await explorer.load(file);
    raw = result?.config;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError([{ path: file, message: `cannot be read: ${message}` }]);
  }
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new ConfigError([{ path: '(root)', message: 'the config file must hold a mapping' }]);
  }
  return { config: parseConfig(raw, options.env), path: file, dir: path.dirname(file) };
}
