/** Key paths as a config file reads them, for every problem a person is shown. */
import type { z } from 'zod';
import type { ConfigProblem } from '../errors.js';

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
