/**
 * A run's model calls and tool calls as spans of the delivery's trace (with `observability.otlp`;
 * otherwise `traceStep` only calls through), named and attributed by OpenTelemetry's GenAI
 * semantic conventions. A tool call's span names the program alone, never its arguments.
 */
import { traceStep } from '@webhook-gateway/core';
import type { AssistantReply } from './chat-schema.js';

/** One chat completion as a `chat <model>` client span, with the tokens it used. */
export function traceModelCall(
  model: string,
  call: () => Promise<AssistantReply>,
): Promise<AssistantReply> {
  return traceStep(
    `chat ${model}`,
    {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': model,
    },
    async (span) => {
      const reply = await call();
      span?.setAttributes({
        'gen_ai.usage.input_tokens': reply.usage.promptTokens,
        'gen_ai.usage.output_tokens': reply.usage.completionTokens,
        'gen_ai.usage.cache_read.input_tokens': reply.usage.cachedPromptTokens,
        ...(reply.finishReason !== null
          ? { 'gen_ai.response.finish_reasons': reply.finishReason }
          : {}),
      });
      return reply;
    },
    'client',
  );
}

/** A shell word that sets a variable (`GH_TOKEN=…`): never the program, never shown. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The program a command runs: its first word that is not a variable assignment, path dropped. */
function programOf(command: string | readonly string[]): string {
  const words = typeof command === 'string' ? command.trim().split(/\s+/) : command;
  const first = words.find((word) => word !== '' && !ASSIGNMENT.test(word)) ?? '';
  return first.slice(first.lastIndexOf('/') + 1);
}

/** One terminal command as an `execute_tool terminal` span naming its program. */
export function traceTerminalCall<T extends { exitCode: number | null }>(
  command: string | readonly string[],
  run: () => Promise<T>,
): Promise<T> {
  return traceStep(
    'execute_tool terminal',
    {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'terminal',
      'webhook_gateway.tool.program': programOf(command),
    },
    async (span) => {
      const outcome = await run();
      if (outcome.exitCode !== null) span?.setAttributes({ 'process.exit.code': outcome.exitCode });
      return outcome;
    },
  );
}
