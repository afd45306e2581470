import { describe, expect, it } from 'vitest';
import { instructionsFor, readRepoRules, skipReason } from './repo-config.js';

const facts = { draft: false, labels: [], author: 'alice', title: 'Fix the parser' };

describe('readRepoRules', () => {
  it('a missing file applies nothing', () => {
    expect(readRepoRules(undefined)).toMatchObject({ refused: [], problem: undefined });
  });

  it('reads the narrowing keys', () => {
    const rules = readRepoRules(
      [
        'instructions: Prefer small functions.',
        'paths:',
        '  ignore: ["docs/generated/**"]',
        '  instructions:',
        '    - path: "src/db/**"',
        '      instructions: Every query must use bound parameters.',
        'skip: { draft: true, labels: [no-review], authors: ["renovate[bot]"], title: "^WIP" }',
      ].join('\n'),
    );
    expect(rules.problem).toBeUndefined();
    expect(rules.config.paths.ignore).toEqual(['docs/generated/**']);
    expect(skipReason(rules.config, { ...facts, draft: true })).toBe('draft');
    expect(skipReason(rules.config, { ...facts, labels: ['no-review'] })).toBe('label no-review');
    expect(skipReason(rules.config, { ...facts, author: 'renovate[bot]' })).toBe(
      'author renovate[bot]',
    );
    expect(skipReason(rules.config, { ...facts, title: 'WIP: parser' })).toBe('title');
    expect(skipReason(rules.config, facts)).toBeUndefined();
    expect(instructionsFor(rules.config, ['src/db/query.ts', 'README.md'])).toBe(
      'Prefer small functions.\n\nFor src/db/**: Every query must use bound parameters.',
    );
    expect(instructionsFor(rules.config, ['README.md'])).toBe('Prefer small functions.');
  });

  it('refuses each host-only key by name and applies the rest', () => {
    const rules = readRepoRules(
      'model: gpt-5\nrunner: command\nagent: { terminal: { enabled: true } }\nsecret: x\ninstructions: Be kind.\n',
    );
    expect(rules.refused).toEqual(['model', 'runner', 'agent', 'secret']);
    expect(rules.problem).toBeUndefined();
    expect(rules.config.instructions).toBe('Be kind.');
  });

  it('an invalid file is not applied, and the problem names the key', () => {
    const invalid = readRepoRules('instructions: Hi.\nskip:\n  labels: no-review\n');
    expect(invalid.problem).toMatch(/^skip\.labels: /);
    expect(invalid.config.instructions).toBeUndefined();
    expect(readRepoRules('skip: { title: "(" }').problem).toBe(
      'skip.title: the regular expression does not compile',
    );
    expect(readRepoRules('colour: blue\n').problem).toMatch(/colour/);
    expect(readRepoRules('a: [1').problem).toMatch(/^not YAML: /);
    expect(readRepoRules('- a\n').problem).toBe('expected a mapping of keys at the top');
  });
});
