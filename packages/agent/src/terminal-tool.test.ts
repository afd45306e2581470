import { describe, expect, it } from 'vitest';
import { parseTerminalArguments, terminalResult, unknownToolResult } from './terminal-tool.js';

describe('parseTerminalArguments', () => {
  it('reads the command', () => {
    expect(parseTerminalArguments('{"command":"gh pr diff 2 --repo o/r"}')).toEqual({
      ok: true,
      command: 'gh pr diff 2 --repo o/r',
    });
  });

  it('reports arguments that are not JSON', () => {
    const parsed = parseTerminalArguments('{"command": "ls"');
    expect(parsed).toMatchObject({ ok: false });
    expect(!parsed.ok && parsed.error).toMatch(/not valid JSON/);
  });

  it('reports a missing or empty command', () => {
    for (const text of ['{}', '{"cmd":"ls"}', '{"command":""}', '{"command":42}', '[]', 'null']) {
      const parsed = parseTerminalArguments(text);
      expect(!parsed.ok && parsed.error, text).toMatch(/"command"/);
    }
  });
});

describe('tool results', () => {
  it('are JSON with exit code, output and notes', () => {
    const text = terminalResult({
      exitCode: 1,
      stdout: { text: 'out' },
      stderr: { text: 'err', note: 'cut: showing the first 3 of 9 bytes' },
      durationMs: 5,
    });
    expect(JSON.parse(text)).toEqual({
      exit_code: 1,
      stdout: 'out',
      stderr: 'err',
      stderr_note: 'cut: showing the first 3 of 9 bytes',
    });
  });

  it('name the tools there are when the model calls another', () => {
    const result = JSON.parse(unknownToolResult('browser', ['terminal', 'comment_on_line'])) as {
      error: string;
    };
    expect(result.error).toMatch(/no tool named "browser".*"terminal", "comment_on_line"$/);
    const withoutTerminal = JSON.parse(unknownToolResult('terminal', ['comment_on_line'])) as {
      error: string;
    };
    expect(withoutTerminal.error).toMatch(/"comment_on_line" \(no terminal/);
  });
});
