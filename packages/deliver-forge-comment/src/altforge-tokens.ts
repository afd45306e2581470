/**
 * `platforms.altforge.tokens`: a token per group or project, by the payload's
 * `project.path_with_namespace`. `acme/payments` names one project; `acme/*` every project under
 * the group `acme` (subgroups too). The most specific pattern wins: an exact path, then the
 * longest group.
 */
import type { AltforgeSettings } from './settings.js';

/** The pattern of `tokens` that decides for `projectPath`, or `undefined` when none matches. */
export function matchingPattern(
  patterns: readonly string[],
  projectPath: string,
): string | undefined {
  const path = projectPath.toLowerCase();
  let best: { pattern: string; rank: number } | undefined;
  for (const pattern of patterns) {
    const lower = pattern.toLowerCase();
    let rank: number | undefined;
    if (lower === path) rank = Number.MAX_SAFE_INTEGER;
    else if (lower.endsWith('/*') && path.startsWith(lower.slice(0, -1))) rank = lower.length;
    else if (lower === '*') rank = 0;
    if (rank !== undefined && (!best || rank > best.rank)) best = { pattern, rank };
  }
  return best?.pattern;
}

/**
 * The token for a project: its pattern's in `tokens`, else `token`, else `undefined` (glab's own
 * login).
 */
export function altforgeTokenFor(
  settings: Pick<AltforgeSettings, 'token' | 'tokens'>,
  projectPath: string | undefined,
): string | undefined {
  const tokens = settings.tokens ?? {};
  const pattern =
    projectPath === undefined ? undefined : matchingPattern(Object.keys(tokens), projectPath);
  return (pattern === undefined ? undefined : tokens[pattern]) ?? settings.token;
}
