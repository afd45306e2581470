/**
 * Skills: `<dir>/<name>/SKILL.md`, looked up in `<home>/skills` and then each of
 * `agent.skills_dirs`. Of a route's `skills` list the first one found is the skill; the names
 * before it are missing, the ones after it are never read, and skills are never combined. The
 * skill goes at the head of the prompt every runner gets.
 */
import fs from 'node:fs/promises';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Logger, RenderContext } from '@webhook-gateway/core';
import { agentSettings } from './agent-settings.js';

/** The skill chosen for a route, and the names that were looked for in vain before it. */
export interface SkillChoice {
  found?: { name: string; file: string };
  missing: string[];
}

/** A skill loaded for a run. */
export interface Skill {
  name: string;
  text: string;
}

/** A name that is one directory, not a path that could leave the skills directory. */
function isSkillName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name);
}

/** The directories skills are looked up in, in order: `<home>/skills`, then `skills_dirs` (relative to home). */
export function skillDirs(home: string, skillsDirs: readonly string[]): string[] {
  return [path.join(home, 'skills'), ...skillsDirs.map((dir) => path.resolve(home, dir))];
}

/**
 * Picks the first name of `names` that has a `SKILL.md` in one of `dirs` (earlier dirs win).
 *
 * @example chooseSkill(['triage', 'code-review'], ['/home/gw/skills'], fileExists)
 * // { found: { name: 'code-review', file: '/home/gw/skills/code-review/SKILL.md' }, missing: ['triage'] }
 */
export function chooseSkill(
  names: readonly string[],
  dirs: readonly string[],
  isFile: (file: string) => boolean,
): SkillChoice {
  const missing: string[] = [];
  for (const name of names) {
    const file = isSkillName(name)
      ? dirs.map((dir) => path.join(dir, name, 'SKILL.md')).find(isFile)
      : undefined;
    if (file) return { found: { name, file }, missing };
    missing.push(name);
  }
  return { missing };
}

function fileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Loads the route's skill, warning about each name before it that was not found.
 * Undefined when the route lists no skill or none is found.
 */
export async function loadSkill(
  names: readonly string[],
  dirs: readonly string[],
  log: Logger,
): Promise<Skill | undefined> {
  const choice = chooseSkill(names, dirs, fileExists);
  for (const name of choice.missing) {
    log.warn(
      { skill: name, skills_dirs: dirs },
      `skill "${name}" was not found (looked for ${name}/SKILL.md in ${dirs.join(', ')})`,
    );
  }
  if (!choice.found) return undefined;
  const text = await fs.readFile(choice.found.file, 'utf8');
  return { name: choice.found.name, text };
}

/**
 * The prompt with the skill before it, under a line naming it; the prompt as it is without one.
 *
 * @example withSkill('Review PR #2', { name: 'code-review', text: 'Look for bugs.\n' })
 * // 'Skill "code-review":\nLook for bugs.\n\nReview PR #2'
 */
export function withSkill(prompt: string, skill: Skill | undefined): string {
  if (!skill) return prompt;
  return `Skill "${skill.name}":\n${skill.text.trim()}\n\n${prompt}`;
}

/** The skills tap on `render`: loads the route's skill (once per render) and puts it first. */
export async function addRouteSkill(prompt: string, context: RenderContext): Promise<string> {
  const skill = await loadSkill(
    context.routeConfig.skills,
    skillDirs(context.home, agentSettings(context.agent).skills_dirs),
    context.log,
  );
  return withSkill(prompt, skill);
}
