/**
 * Any reason a config is refused (schema, startup checks, plugin setup) as problems with a key
 * path, so `config validate` and a rejected reload can print one line per problem.
 */
import { ConfigError, errorMessage, type ConfigProblem } from '@webhook-gateway/core';
import { PluginError } from '@webhook-gateway/core/runtime';

const TOP_LEVEL_KEYS = '(?:platforms|agent|store|plugins)';
/** A key path at the end of a message, in parentheses: `… (platforms.webhook.extra.port)`. */
const TRAILING_PATH = new RegExp(`\\((${TOP_LEVEL_KEYS}(?:\\.[\\w-]+)+)\\)\\s*$`);
const ROUTE_NAME = /^route "([^"]+)"/;
const ANY_PATH = new RegExp(`\\b(${TOP_LEVEL_KEYS}(?:\\.[\\w-]+)+)`);

/**
 * The key path a startup message is about: the one it names in trailing parentheses, else its
 * route, else the first key path it mentions.
 *
 * @example keyPathOf('route "a" has no secret: set …') // 'platforms.webhook.extra.routes.a'
 */
export function keyPathOf(message: string): string | undefined {
  const trailing = TRAILING_PATH.exec(message);
  if (trailing?.[1]) return trailing[1];
  const route = ROUTE_NAME.exec(message);
  if (route?.[1]) return `platforms.webhook.extra.routes.${route[1]}`;
  return ANY_PATH.exec(message)?.[1];
}

/** Splits what a refused config threw into problems, each with the key path it concerns. */
export function problemsFromError(error: unknown): ConfigProblem[] {
  if (error instanceof ConfigError) return [...error.problems];
  const fallback = error instanceof PluginError ? 'plugins' : '(config)';
  return errorMessage(error)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => ({ path: keyPathOf(line) ?? fallback, message: line }));
}

/** One problem as the CLI prints it. */
export function formatProblem(problem: ConfigProblem): string {
  return `${problem.path}: ${problem.message}`;
}
