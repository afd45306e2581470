import fs from 'node:fs/promises';
import path from 'node:path';
import { silentLogger } from '@webhook-gateway/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addRouteSkill, chooseSkill, loadSkill, skillDirs, withSkill } from './skills.js';
import { renderContext } from './test-support/render-context.js';
import { cleanup, tempDir } from './test-support/temp.js';

afterEach(cleanup);

describe('chooseSkill', () => {
  const files = new Set([
    '/h/skills/code-review/SKILL.md',
    '/x/triage/SKILL.md',
    '/x/code-review/SKILL.md',
  ]);
  const isFile = (file: string) => files.has(file);

  it('picks the first name found and reports the missing ones before it', () => {
    expect(chooseSkill(['nope', 'code-review', 'triage'], ['/h/skills', '/x'], isFile)).toEqual({
      found: { name: 'code-review', file: '/h/skills/code-review/SKILL.md' },
      missing: ['nope'],
    });
  });

  it('does not look past the first skill found', () => {
    const looked: string[] = [];
    chooseSkill(['triage', 'code-review'], ['/h/skills', '/x'], (file) => {
      looked.push(file);
      return isFile(file);
    });
    expect(looked.some((file) => file.includes('code-review'))).toBe(false);
  });

  it('prefers <home>/skills over the other directories', () => {
    expect(chooseSkill(['code-review'], ['/h/skills', '/x'], isFile).found?.file).toBe(
      '/h/skills/code-review/SKILL.md',
    );
  });

  it('reports every name when none is found', () => {
    expect(chooseSkill(['a', 'b'], ['/h/skills'], isFile)).toEqual({ missing: ['a', 'b'] });
  });

  it('treats a name that is a path as missing', () => {
    expect(chooseSkill(['../x/triage', 'x/triage'], ['/h/skills'], () => true)).toEqual({
      missing: ['../x/triage', 'x/triage'],
    });
  });
});

describe('skillDirs', () => {
  it('starts with <home>/skills and resolves relative dirs from home', () => {
    expect(skillDirs('/h', ['team-skills', '/abs'])).toEqual([
      '/h/skills',
      '/h/team-skills',
      '/abs',
    ]);
  });
});

async function writeSkill(dir: string, name: string, text: string) {
  await fs.mkdir(path.join(dir, name), { recursive: true });
  await fs.writeFile(path.join(dir, name, 'SKILL.md'), text);
}

describe('loadSkill', () => {
  it('loads only the first skill found and warns about the missing names before it', async () => {
    const home = await tempDir();
    await writeSkill(path.join(home, 'extra'), 'code-review', 'Review carefully.');
    await writeSkill(path.join(home, 'skills'), 'triage', 'Label the issue.');
    const log = silentLogger();
    const warn = vi.spyOn(log, 'warn');

    const skill = await loadSkill(
      ['missing-one', 'code-review', 'triage'],
      skillDirs(home, ['extra']),
      log,
    );

    expect(skill).toEqual({ name: 'code-review', text: 'Review carefully.' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/skill "missing-one" was not found/);
  });

  it('loads nothing, and warns for each name, when no skill exists', async () => {
    const home = await tempDir();
    const log = silentLogger();
    const warn = vi.spyOn(log, 'warn');
    expect(await loadSkill(['a', 'b'], skillDirs(home, []), log)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('withSkill', () => {
  it('puts the skill, under a line naming it, before the prompt', () => {
    expect(withSkill('Review PR #2', { name: 'code-review', text: 'Look for bugs first.\n' })).toBe(
      'Skill "code-review":\nLook for bugs first.\n\nReview PR #2',
    );
  });

  it('leaves the prompt as it is without a skill', () => {
    expect(withSkill('Review PR #2', undefined)).toBe('Review PR #2');
  });
});

describe('addRouteSkill (the skills tap)', () => {
  it("adds the route's first skill found in <home>/skills or skills_dirs, for any runner", async () => {
    const home = await tempDir();
    await writeSkill(
      path.join(home, 'team'),
      'code-review',
      'SKILL: review the diff line by line.',
    );
    await writeSkill(path.join(home, 'skills'), 'triage', 'SKILL: label the issue.');
    for (const runner of ['dry-run', 'command', 'openai']) {
      const context = renderContext({
        runner,
        home,
        skills: ['code-review', 'triage'],
        skillsDirs: ['team'],
      });
      expect(await addRouteSkill('Review PR #2', context)).toBe(
        'Skill "code-review":\nSKILL: review the diff line by line.\n\nReview PR #2',
      );
    }
  });

  it('warns about a skill that is not found and leaves the prompt as it is', async () => {
    const log = silentLogger();
    const warn = vi.spyOn(log, 'warn');
    const context = renderContext({ runner: 'command', home: await tempDir(), skills: ['x'], log });
    expect(await addRouteSkill('Review PR #2', context)).toBe('Review PR #2');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/skill "x" was not found/);
  });
});
