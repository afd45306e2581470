/** `config validate`: the config file read, expanded, parsed and checked as the gateway would. */
import fs from 'node:fs';
import { errorMessage, type ConfigProblem, type GatewayConfig } from '@webhook-gateway/core';
import {
  loadConfig,
  resolveConfigPath,
  resolveHome,
  storeProblems,
  type LoadedConfig,
  type LoggedWarning,
} from '@webhook-gateway/core/runtime';
import { loadPlugins } from '../../builtin-plugins.js';
import { gatewayProblems } from '../../config-check.js';
import { problemsFromError } from '../../config-problems.js';
import { withStorePlugin } from '../../open-store.js';

export interface ValidationResult {
  /** The file that was checked. */
  file: string;
  /** False when no file exists and the embedded defaults were checked. */
  exists: boolean;
  problems: ConfigProblem[];
  /** What the gateway would warn about at start, though it would start. */
  warnings: LoggedWarning[];
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
    return { file, exists: fs.existsSync(file), problems: problemsFromError(error), warnings: [] };
  }
  const exists = loaded.path !== undefined;
  let problems: ConfigProblem[];
  const warnings: LoggedWarning[] = [];
  try {
    problems = await storeKindProblems(loaded);
    if (problems.length === 0) {
      problems = await gatewayProblems(loaded.config, {
        home,
        plugins: loaded.plugins,
        warnings,
      });
    }
  } catch (error) {
    problems = problemsFromError(error);
  }
  return { file, exists, problems, warnings, config: loaded.config };
}

/**
 * The configured `store.kind` against the plugins that provide stores, a separately installed one
 * included: the checks below run on a memory store, so the kind is checked on its own.
 */
async function storeKindProblems(loaded: LoadedConfig): Promise<ConfigProblem[]> {
  let plugins;
  try {
    plugins = await withStorePlugin(loaded.config.store, loaded);
  } catch (error) {
    return [{ path: 'store.kind', message: errorMessage(error) }];
  }
  return storeProblems(
    loaded.config,
    plugins.map((plugin) => plugin.plugin),
  );
}
