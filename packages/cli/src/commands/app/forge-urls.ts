/**
 * The two addresses of a forge: its web pages (`https://github.com`, where the manifest form
 * goes) and its REST API (`https://api.github.com`, where the code is exchanged). Enterprise
 * Server serves the API under the web address: `https://ghe.example.com/api/v3`.
 */
import { DEFAULT_API_URL } from '@webhook-gateway/deliver-forge-comment/app';
import { OptionsError } from '../deliveries/options.js';

const GITHUB_URL = 'https://github.com';
const ENTERPRISE_API_PATH = '/api/v3';

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** The REST API of the forge whose web pages are at `githubUrl`. */
function apiUrlOf(githubUrl: string): string {
  const web = trimmed(githubUrl);
  return web === GITHUB_URL ? DEFAULT_API_URL : `${web}${ENTERPRISE_API_PATH}`;
}

/** The web pages of the forge whose REST API is at `apiUrl`, or undefined for an unknown shape. */
function githubUrlOf(apiUrl: string): string | undefined {
  const api = trimmed(apiUrl);
  if (api === DEFAULT_API_URL) return GITHUB_URL;
  return api.endsWith(ENTERPRISE_API_PATH) ? api.slice(0, -ENTERPRISE_API_PATH.length) : undefined;
}

export interface ForgeUrls {
  githubUrl: string;
  apiUrl: string;
}

/**
 * `--github-url` when given (its API derived from it), else the forge of the config's
 * `platforms.forge.api_url`, else github.com.
 */
export function forgeUrls(
  githubUrlFlag: string | undefined,
  configApiUrl: string | undefined,
): ForgeUrls {
  if (githubUrlFlag !== undefined) {
    return { githubUrl: trimmed(githubUrlFlag), apiUrl: apiUrlOf(githubUrlFlag) };
  }
  if (configApiUrl === undefined) return { githubUrl: GITHUB_URL, apiUrl: DEFAULT_API_URL };
  const githubUrl = githubUrlOf(configApiUrl);
  if (githubUrl === undefined) {
    throw new OptionsError(
      `--github-url is needed: platforms.forge.api_url (${configApiUrl}) is neither ${DEFAULT_API_URL} nor <forge>${ENTERPRISE_API_PATH}, so the forge's web address cannot be told from it`,
    );
  }
  return { githubUrl, apiUrl: trimmed(configApiUrl) };
}

/**
 * Where the manifest form posts: the forge's new-App page of the user, or of `org`, with the
 * page's `state`, which the forge hands back on its redirect.
 */
export function newAppUrl(githubUrl: string, org: string | undefined, state: string): string {
  const page =
    org === undefined
      ? `${githubUrl}/settings/apps/new`
      : `${githubUrl}/organizations/${encodeURIComponent(org)}/settings/apps/new`;
  return `${page}?state=${encodeURIComponent(state)}`;
}
