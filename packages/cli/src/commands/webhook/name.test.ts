import { describe, expect, it } from 'vitest';
import { subscriptionNameProblem } from './name.js';

describe('subscriptionNameProblem', () => {
  it.each(['ci', 'pr-review', 'a_b', '0day', 'x1-2_3'])('accepts %s', (name) => {
    expect(subscriptionNameProblem(name)).toBeUndefined();
  });

  it.each(['', 'CI', '-lead', '_lead', 'a/b', 'a b', 'ä', 'a.b', '../x'])(
    'refuses %j, saying which characters are allowed',
    (name) => {
      expect(subscriptionNameProblem(name)).toMatch(/lowercase letters, digits, "_" and "-"/);
    },
  );
});
