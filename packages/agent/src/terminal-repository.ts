/**
 * Pins `gh` and `glab` calls to the delivery's repository: every repository a call names (with
 * `--repo`/`-R`, in a `repos/<owner>/<repo>/…` or `projects/<path>/…` API path, or in a web URL)
 * must be that one, and `gh api` / `glab api` must address it. So a prompt-injected agent cannot
 * read another private repository the token can see and paste it into a public comment.
 */
import type { JsonObject } from '@webhook-gateway/core';

function object(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/**
 * The repository a delivery is about: `owner/repo` (forge, Gitea, Bitbucket Cloud) or the
 * project's `group/project` path (altforge); `undefined` when the payload names none.
 */
export function deliveryRepository(payload: JsonObject): string | undefined {
  const fullName = object(payload.repository)?.full_name;
  if (typeof fullName === 'string' && fullName !== '') return fullName;
  const path = object(payload.project)?.path_with_namespace;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

/** `owner/repo` of `[HOST/]OWNER/REPO` (gh's `--repo`) or a web URL's path. */
function repoOfSpec(spec: string, program: string): string {
  const url = /^https?:\/\/[^/]+\/(.*)$/.exec(spec);
  if (url) return repoOfUrlPath(url[1] ?? '', program);
  const parts = spec.replace(/\.git$/, '').split('/');
  // gh: HOST/OWNER/REPO; glab: GROUP/…/PROJECT (a host only with a URL).
  return program === 'gh' && parts.length === 3 ? parts.slice(1).join('/') : parts.join('/');
}

function repoOfUrlPath(path: string, program: string): string {
  const clean = path.split(/[?#]/, 1)[0] ?? '';
  if (program === 'glab') return (clean.split('/-/', 1)[0] ?? '').replace(/\/+$/, '');
  return clean.split('/').slice(0, 2).join('/');
}

/** Where an API call goes, read from the endpoint word: a repository, or none. */
function apiTarget(
  endpoint: string,
  program: string,
): { repo: string } | { placeholder: true } | { none: true } {
  const path = endpoint.replace(/^https?:\/\/[^/]+/, '').replace(/^\/+/, '');
  if (program === 'gh') {
    const match = /^repos\/([^/?#]+)\/([^/?#]+)/.exec(path);
    if (!match) return { none: true };
    if (match[1] === '{owner}' && match[2] === '{repo}') return { placeholder: true };
    return { repo: `${match[1]}/${match[2]}` };
  }
  const match = /^projects\/([^/?#]+)/.exec(path);
  if (!match) return { none: true };
  if (match[1] === ':id' || match[1] === ':fullpath') return { placeholder: true };
  try {
    return { repo: decodeURIComponent(match[1] ?? '') };
  } catch {
    return { repo: match[1] ?? '' };
  }
}

/** The first word after `api` that is not an option or an option's value. */
function apiEndpoint(args: readonly string[]): string | undefined {
  const takesValue =
    /^(-X|--method|-H|--header|-f|-F|--field|--raw-field|--input|-q|--jq|-t|--template|--hostname|--cache|-p|--preview)$/;
  for (let i = 1; i < args.length; i++) {
    const word = args[i] ?? '';
    if (takesValue.test(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/**
 * Why `argv` (a `gh` or `glab` call) reaches beyond `repository`, or `undefined` when it does
 * not. Other programs are not checked.
 *
 * @example repositoryRefusal(['gh', 'pr', 'view', '1', '-R', 'other/secret'], 'o/r')
 * // 'names the repository "other/secret"; …'
 */
export function repositoryRefusal(
  argv: readonly string[],
  repository: string | undefined,
): string | undefined {
  const program = argv[0] ?? '';
  if (program !== 'gh' && program !== 'glab') return undefined;
  const args = argv.slice(1);
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    const flag = /^(?:--repo(?:=(.*))?|-R(.+)?)$/.exec(word);
    if (flag) {
      const value = flag[1] ?? flag[2] ?? args[++i];
      if (value !== undefined) named.push(repoOfSpec(value, program));
    } else if (/^https?:\/\//.test(word)) {
      named.push(repoOfSpec(word, program));
    }
  }
  if (args[0] === 'api') {
    const endpoint = apiEndpoint(args);
    const target = endpoint === undefined ? { none: true as const } : apiTarget(endpoint, program);
    if ('none' in target) {
      return `calls the API at ${JSON.stringify(endpoint ?? '')}, outside this delivery's repository; only ${program === 'gh' ? '"repos/<owner>/<repo>/…"' : '"projects/<path>/…"'} of ${JSON.stringify(repository ?? '(none)')} may be called`;
    }
    if ('repo' in target) named.push(target.repo);
  }
  const wanted = repository?.toLowerCase();
  const other = named.find((repo) => repo.toLowerCase() !== wanted);
  if (other === undefined) return undefined;
  return `names the repository ${JSON.stringify(other)}; only this delivery's repository ${JSON.stringify(repository ?? '(none)')} may be named`;
}
