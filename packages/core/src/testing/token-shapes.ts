/**
 * One made-up token of every well-known shape the gateway redacts, built at run time (no
 * secret-looking literal in the source): for tests of redaction, here and in plugins.
 */
const body = (n: number) => 'Zq7xK2mP9wR4tY8u'.repeat(Math.ceil(n / 16)).slice(0, n);

export const TOKEN_SHAPE_SAMPLES: Readonly<Record<string, string>> = Object.freeze({
  ghp_: `ghp_${body(36)}`,
  gho_: `gho_${body(36)}`,
  ghs_: `ghs_${body(36)}`,
  github_pat_: `github_pat_11${body(20)}_${body(59)}`,
  'glpat-': `glpat-${body(20)}`,
  'sk-': `sk-proj-${body(48)}`,
  'xoxb-': `xoxb-1234567890-${body(24)}`,
  'xoxp-': `xoxp-1234567890-${body(24)}`,
  'xoxa-': `xoxa-2-${body(24)}`,
  'xoxr-': `xoxr-${body(24)}`,
  AKIA: `AKIA${body(16).toUpperCase()}`,
  'private key': [
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    body(64),
    body(40),
    '-----END OPENSSH PRIVATE KEY-----',
  ].join('\n'),
});
