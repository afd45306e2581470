/**
 * The `terminal` tool as the model sees it: its definition, how its arguments are read, and the
 * JSON text its results come back as. Anything wrong with a call is an answer, never a crash.
 */
import { z } from 'zod';
import type { ToolDefinition } from './chat-schema.js';
import type { TerminalOutcome } from './terminal.js';

export const TERMINAL_TOOL_NAME = 'terminal';

export const TERMINAL_TOOL: ToolDefinition = Object.freeze({
  type: 'function',
  function: {
    name: TERMINAL_TOOL_NAME,
    description:
      'Run a shell command and get back JSON with its exit_code, stdout and stderr (each cut to a size limit). ' +
      'Use it to fetch what the event data lacks, e.g. `gh pr diff <number> --repo <owner/repo>`.',
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          description: 'The shell command to run, e.g. "gh pr view 42 --repo o/r".',
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
  },
});

const terminalArgumentsSchema = z.object({ command: z.string().trim().min(1) });

/** A tool call's arguments read, or what to tell the model about them. */
export type TerminalArguments = { ok: true; command: string } | { ok: false; error: string };

/**
 * Reads the JSON text the model wrote as `arguments` of a `terminal` call.
 *
 * @example parseTerminalArguments('{"command":"ls"}') // { ok: true, command: 'ls' }
 */
export function parseTerminalArguments(text: string): TerminalArguments {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      error: `the arguments are not valid JSON (${JSON.stringify(text.slice(0, 200))}); send {"command": "<shell command>"}`,
    };
  }
  const parsed = terminalArgumentsSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      error: 'the arguments need a non-empty string "command"; send {"command": "<shell command>"}',
    };
  }
  return { ok: true, command: parsed.data.command };
}

/** A tool result that reports a problem with the call itself. */
export function toolErrorResult(error: string): string {
  return JSON.stringify({ error }, null, 2);
}

/** What an unknown or disabled tool name gets back: the names of the tools there are. */
export function unknownToolResult(name: string, offered: readonly string[]): string {
  const names = offered.map((tool) => JSON.stringify(tool)).join(', ');
  return toolErrorResult(
    `there is no tool named ${JSON.stringify(name)}; the tools are ${names}` +
      (offered.includes(TERMINAL_TOOL_NAME) ? '' : ' (no terminal: answer from the event data)'),
  );
}

/** A command's outcome as the JSON text of a tool message. */
export function terminalResult(outcome: TerminalOutcome): string {
  return JSON.stringify(
    {
      exit_code: outcome.exitCode,
      ...(outcome.error ? { error: outcome.error } : {}),
      stdout: outcome.stdout.text,
      ...(outcome.stdout.note ? { stdout_note: outcome.stdout.note } : {}),
      stderr: outcome.stderr.text,
      ...(outcome.stderr.note ? { stderr_note: outcome.stderr.note } : {}),
    },
    null,
    2,
  );
}
