/**
 * Answers one tool call of the model: runs the command, keeps the line comment, or says what is
 * wrong with the call.
 */
import type {
  Credentials,
  LineComment,
  Logger,
  ReviewConclusion,
  ToolCallRecord,
} from '@webhook-gateway/core';
import {
  CONCLUSION_TOOL,
  CONCLUSION_TOOL_NAME,
  parseConclusionArguments,
} from './conclusion-tool.js';
import type { ToolCall, ToolDefinition } from './chat-schema.js';
import type { TerminalConfig } from './agent-settings.js';
import {
  LINE_COMMENT_TOOL,
  LINE_COMMENT_TOOL_NAME,
  lineCommentResult,
  parseLineCommentArguments,
} from './line-comment-tool.js';
import { traceTerminalCall } from './run-spans.js';
import { runTerminalCommand } from './terminal.js';
import { checkAllowed } from './terminal-allowlist.js';
import { terminalEnv } from './terminal-env.js';
import {
  TERMINAL_TOOL,
  TERMINAL_TOOL_NAME,
  parseTerminalArguments,
  terminalResult,
  toolErrorResult,
  unknownToolResult,
} from './terminal-tool.js';
import { ensureWorkDir } from './work-dir.js';

/** What answering tool calls needs from the run. */
export interface ToolCallContext {
  terminal: TerminalConfig;
  /** The gateway's env; only its allowlisted part reaches a command. */
  env: NodeJS.ProcessEnv;
  /** The delivery's forge identity (`GH_TOKEN`…): reaches every command. */
  credentials: Credentials;
  home: string;
  /** The delivery's journal id: names its work directory. */
  journalId: string;
  /** The repository the delivery is about: the only one `gh`/`glab` may name (with `allow`). */
  repository: string | undefined;
  signal: AbortSignal;
  log: Logger;
  /** Called for each command that ran, for the accounting. */
  record(call: ToolCallRecord): void;
  /** Keeps a line comment next to the answer; returns how many the run has now. */
  comment(comment: LineComment): number;
  /** Keeps the review's verdict (`set_conclusion`, offered when `concludes` is set). */
  conclude?: (conclusion: ReviewConclusion) => void;
}

/**
 * The tools a run offers the model: `terminal` when enabled, `comment_on_line` always,
 * `set_conclusion` when the route shows a check.
 */
export function offeredTools(terminal: TerminalConfig, concludes = false): ToolDefinition[] {
  return [
    ...(terminal.enabled ? [TERMINAL_TOOL] : []),
    LINE_COMMENT_TOOL,
    ...(concludes ? [CONCLUSION_TOOL] : []),
  ];
}

/**
 * The content of the tool message that answers `call`. Unknown tools and malformed arguments get
 * an error the model can act on; only an aborted run rejects.
 */
export async function answerToolCall(call: ToolCall, context: ToolCallContext): Promise<string> {
  const name = call.function.name;
  if (name === LINE_COMMENT_TOOL_NAME) return answerLineComment(call, context);
  const conclude = context.conclude;
  if (name === CONCLUSION_TOOL_NAME && conclude) return answerConclusion(call, context, conclude);
  if (name !== TERMINAL_TOOL_NAME || !context.terminal.enabled) {
    context.log.warn({ tool: name }, 'the model called a tool that does not exist');
    const offered = offeredTools(context.terminal, conclude !== undefined).map(
      (tool) => tool.function.name,
    );
    return unknownToolResult(name, offered);
  }
  const parsed = parseTerminalArguments(call.function.arguments);
  if (!parsed.ok) {
    context.log.warn({ tool: name }, `the model sent unusable tool arguments: ${parsed.error}`);
    return toolErrorResult(parsed.error);
  }
  let words: string[] | undefined;
  if (context.terminal.allow) {
    const verdict = checkAllowed(parsed.command, context.terminal.allow, {
      repository: context.repository,
      allowOtherRepos: context.terminal.allow_other_repos,
    });
    if (!verdict.ok) {
      context.record({
        tool: TERMINAL_TOOL_NAME,
        command: parsed.command,
        exitCode: null,
        durationMs: 0,
        refused: verdict.error,
      });
      context.log.warn(
        { tool: TERMINAL_TOOL_NAME, command: parsed.command },
        'refused a command outside agent.terminal.allow',
      );
      return toolErrorResult(verdict.error);
    }
    words = verdict.argv;
  }
  const cwd = await ensureWorkDir(context.home, context.journalId);
  const outcome = await traceTerminalCall(words ?? parsed.command, () =>
    runTerminalCommand(parsed.command, {
      terminal: context.terminal,
      cwd,
      env: terminalEnv(context.env, context.terminal, context.credentials),
      credentials: context.credentials,
      signal: context.signal,
      ...(words ? { words } : {}),
    }),
  );
  context.record({
    tool: TERMINAL_TOOL_NAME,
    command: parsed.command,
    exitCode: outcome.exitCode,
    durationMs: outcome.durationMs,
  });
  context.log.info(
    {
      tool: TERMINAL_TOOL_NAME,
      command: parsed.command,
      backend: context.terminal.backend,
      exit_code: outcome.exitCode,
      duration_ms: outcome.durationMs,
    },
    'agent ran a command',
  );
  return terminalResult(outcome);
}

/** Keeps a `comment_on_line` call's comment, or tells the model what is wrong with it. */
function answerLineComment(call: ToolCall, context: ToolCallContext): string {
  const parsed = parseLineCommentArguments(call.function.arguments);
  if (!parsed.ok) {
    context.log.warn(
      { tool: LINE_COMMENT_TOOL_NAME },
      `the model sent unusable tool arguments: ${parsed.error}`,
    );
    return toolErrorResult(parsed.error);
  }
  return lineCommentResult(parsed.comment, context.comment(parsed.comment));
}

/** Keeps a `set_conclusion` call's verdict, or tells the model what is wrong with it. */
function answerConclusion(
  call: ToolCall,
  context: ToolCallContext,
  conclude: (conclusion: ReviewConclusion) => void,
): string {
  const parsed = parseConclusionArguments(call.function.arguments);
  if (!parsed.ok) {
    context.log.warn(
      { tool: CONCLUSION_TOOL_NAME },
      `the model sent unusable tool arguments: ${parsed.error}`,
    );
    return toolErrorResult(parsed.error);
  }
  conclude(parsed.conclusion);
  return JSON.stringify({ ok: true, conclusion: parsed.conclusion.value });
}
