import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '@webhook-gateway/core';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { runCommand } from './command-runner.js';
import { agentConfig, runRequest } from './test-support/run-request.js';
import { cleanup, tempDir, writeScript } from './test-support/temp.js';

let bin: string;

beforeEach(async () => {
  bin = await tempDir();
});

afterEach(cleanup);

/** Runs a program that prints `stdout` as the `command` runner. */
async function runPrinting(stdout: string, log: Logger = silentLogger()) {
  const program = await writeScript(bin, 'agent', `cat >/dev/null; printf '%s' '${stdout}'`);
  const agent = agentConfig({ runner: 'command', command: [program] });
  const home = await tempDir();
  return runCommand({ ...runRequest({ agent, home }), log });
}

describe('the command runner', () => {
  it('takes a review document on stdout as the summary and its line comments', async () => {
    const result = await runPrinting(
      JSON.stringify({
        summary: 'Two remarks.',
        comments: [
          { path: 'src/a.ts', line: 12, body: 'off by one' },
          { path: 'README.md', line: 3, body: 'typo' },
        ],
      }),
    );
    expect(result.answer).toBe('Two remarks.');
    expect(result.lineComments).toEqual([
      { path: 'src/a.ts', line: 12, body: 'off by one' },
      { path: 'README.md', line: 3, body: 'typo' },
    ]);
  });

  it("takes the document's conclusion and its reason, and gives none when it names none", async () => {
    const concluded = await runPrinting(
      JSON.stringify({
        summary: 'A key is committed.',
        comments: [],
        conclusion: 'failure',
        conclusion_reason: 'a secret in config.ts',
      }),
    );
    expect(concluded.conclusion).toEqual({ value: 'failure', reason: 'a secret in config.ts' });
    const plain = await runPrinting(JSON.stringify({ summary: 'ok', comments: [] }));
    expect(plain).not.toHaveProperty('conclusion');
    const bad = await runPrinting(
      JSON.stringify({ summary: 'ok', comments: [], conclusion: 'maybe' }),
    );
    expect(bad.answer).toBe('{"summary":"ok","comments":[],"conclusion":"maybe"}');
  });

  it('takes any other output as the answer, with no line comments', async () => {
    const plain = await runPrinting('LGTM, ship it.');
    expect(plain).toEqual({ answer: 'LGTM, ship it.', accounting: { runner: 'command' } });
    const otherJson = await runPrinting('{"verdict": "ok"}');
    expect(otherJson.answer).toBe('{"verdict": "ok"}');
    expect(otherJson.lineComments).toBeUndefined();
  });

  it('takes a document with a bad comment as plain text, and logs why', async () => {
    const { log, lines } = capturingLogger();
    const stdout = '{"summary": "s", "comments": [{"path": "a.ts", "line": "12", "body": "b"}]}';
    const result = await runPrinting(stdout, log);
    expect(result.answer).toBe(stdout);
    expect(result.lineComments).toBeUndefined();
    const warning = lines.find((line) => line.level === 'warn');
    expect(warning?.message).toMatch(/not a review document/);
    expect(warning?.fields.problems).toMatch(/^comments\.0\.line: /);
  });
});
