/** `config validate`: the config file read, expanded, parsed and checked as the gateway would. */
import fs from 'node:fs';
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import { loadConfig, resolveConfigPath, resolveHome } from '@webhook-gateway/core/runtime';
import { loadPlugins } from '../../builtin-plugins.js';
import { gatewayProblems } from '../../config-check.js';
import { problemsFromError } from '../../config-problems.js';

export interface ValidationResult {
  /** The file that was checked. */
  file: string;
  /** False when no file exists and the embedded defaults were checked. */
  exists: boolean;
  problems: ConfigProblem[];
  /** The parsed config, when it parsed. */
  config?: GatewayConfig;
}

/** Checks `--config FILE` or `<home>/config.yaml`; never throws for a bad config. */
export async function validateConfigFile(options: {
  home?: string | undefined;
  config?: string | undefined;
}): Promise<ValidationResult> {
  const home = resolveHome(options.home);
  const file = resolveConfigPath(home, options.config);
  let loaded;
  try {
    loaded = await loadConfig({ home, configFile: options.config, loadPlugins });
  } catch (error) {
    return { file, exists: fs.existsSync(file), problems: problemsFromError(error) };
  }
  const exists = loaded.path !== undefined;
  let problems: ConfigProblem[];
  try {
    problems = await gatewayProblems(loaded.config, { home, plugins: loaded.plugins });
  } catch (error) {
    problems = problemsFromError(error);
  }
  return { file, exists, problems, config: loaded.config };
}
