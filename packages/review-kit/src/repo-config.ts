/**
 * The repository's own review rules, `.webhook-gateway.yaml`, read from the base branch. It may
 * only narrow what the host configured (skip a request, ignore paths, add instructions); a key
 * that would widen it (a runner, a model, a URL, a secret, a budget, a target, a command, a
 * permission) is refused and named, and the review goes on under the host's config. A file that
 * is not valid is not applied, and one line says which key is wrong.
 */
import picomatch from 'picomatch';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** The default name of the file, at the repository's root. */
export const REPO_CONFIG_FILE = '.webhook-gateway.yaml';

const repoConfigSchema = z.strictObject({
  instructions: z.string().optional(),
  paths: z
    .strictObject({
      ignore: z.array(z.string().min(1)).default([]),
      instructions: z
        .array(z.strictObject({ path: z.string().min(1), instructions: z.string().min(1) }))
        .default([]),
    })
    .prefault({}),
  skip: z
    .strictObject({
      draft: z.boolean().optional(),
      labels: z.array(z.string().min(1)).default([]),
      authors: z.array(z.string().min(1)).default([]),
      title: z
        .string()
        .refine((pattern) => compiles(pattern), 'the regular expression does not compile')
        .optional(),
    })
    .prefault({}),
});

export type RepoConfig = z.infer<typeof repoConfigSchema>;

/** Keys only the host may set: each widens what a pull request's author controls. */
const HOST_ONLY_KEYS = new Set([
  'runner',
  'agent',
  'model',
  'base_url',
  'api_url',
  'url',
  'urls',
  'public_url',
  'terminal',
  'deliver',
  'deliver_extra',
  'targets',
  'target',
  'secret',
  'secrets',
  'token',
  'tokens',
  'api_key',
  'api_key_env',
  'budget',
  'budgets',
  'max_tokens',
  'max_diff_tokens',
  'max_tokens_per_delivery',
  'prices',
  'commands',
  'command',
  'command_permission',
  'permissions',
  'platforms',
  'plugins',
  'routes',
  'review',
]);

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

export interface RepoRules {
  /** The rules to apply: empty when the file is missing or not valid. */
  config: RepoConfig;
  /** Host-only keys the file set, each refused. */
  refused: string[];
  /** Why the file was not applied (`skip.labels: expected an array`), or undefined. */
  problem: string | undefined;
}

const EMPTY: RepoConfig = repoConfigSchema.parse({});

/**
 * The rules of a `.webhook-gateway.yaml` text (undefined: the file does not exist).
 *
 * @example readRepoRules('instructions: Prefer small functions.\nmodel: gpt-5\n').refused // ['model']
 */
export function readRepoRules(text: string | undefined): RepoRules {
  if (text === undefined) return { config: EMPTY, refused: [], problem: undefined };
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    const first = (error as Error).message.split('\n')[0] ?? '';
    return { config: EMPTY, refused: [], problem: `not YAML: ${first}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { config: EMPTY, refused: [], problem: 'expected a mapping of keys at the top' };
  }
  const refused: string[] = [];
  const narrowing: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (HOST_ONLY_KEYS.has(key)) refused.push(key);
    else narrowing[key] = value;
  }
  const result = repoConfigSchema.safeParse(narrowing);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { config: EMPTY, refused, problem: `${where}${issue?.message ?? 'not valid'}` };
  }
  return { config: result.data, refused, problem: undefined };
}

/** What the skip rules look at on a pull or merge request. */
export interface RequestFacts {
  draft: boolean;
  labels: readonly string[];
  author: string;
  title: string;
}

/** Why the repository's rules skip this request (`draft`, `label no-review`, …), or undefined. */
export function skipReason(config: RepoConfig, request: RequestFacts): string | undefined {
  const { skip } = config;
  if (skip.draft === true && request.draft) return 'draft';
  const label = request.labels.find((name) => skip.labels.includes(name));
  if (label !== undefined) return `label ${label}`;
  if (skip.authors.includes(request.author)) return `author ${request.author}`;
  if (skip.title !== undefined && new RegExp(skip.title).test(request.title)) return 'title';
  return undefined;
}

/**
 * The repository's instructions for these changed paths: its general ones, then each path
 * instruction whose glob matches one of them.
 */
export function instructionsFor(config: RepoConfig, changedPaths: readonly string[]): string {
  const parts: string[] = [];
  if (config.instructions !== undefined && config.instructions.trim() !== '')
    parts.push(config.instructions.trim());
  for (const rule of config.paths.instructions) {
    const matches = picomatch(rule.path, { dot: true });
    if (changedPaths.some((changed) => matches(changed)))
      parts.push(`For ${rule.path}: ${rule.instructions.trim()}`);
  }
  return parts.join('\n\n');
}
