/** Errors meant for people: each says what failed and where. */

/** One problem in a config, with the key path it concerns. */
export interface ConfigProblem {
  path: string;
  message: string;
}

/** An invalid config: every problem found, each with its key path. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(
      problems.length === 1
        ? `invalid config: ${problems[0]?.path}: ${problems[0]?.message}`
        : `invalid config (${problems.length} problems):\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** A plugin that could not be resolved, loaded or set up. */
export class PluginError extends Error {
  readonly plugin: string;

  constructor(plugin: string, message: string, options?: { cause?: unknown }) {
    super(`plugin ${plugin}: ${message}`, options);
    this.name = 'PluginError';
    this.plugin = plugin;
  }
}

/** A plugin found in none of the places looked: says where it looked and what to run. */
export class PluginNotInstalledError extends PluginError {
  /** The places looked, in order, as a phrase: "/a (the config file's directory), then from /b (…)". */
  readonly looked: string;
  /** The one command that installs it where it will be found. */
  readonly install: string;

  constructor(plugin: string, details: { looked: string; install: string }) {
    super(
      plugin,
      `is not installed (looked up from ${details.looked}); install it with: ${details.install}`,
    );
    this.name = 'PluginNotInstalledError';
    this.looked = details.looked;
    this.install = details.install;
  }
}

/** The gateway refuses to start (port in use, unsafe settings); the message says what to do. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Describes an unknown thrown value in one line. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
