/**
 * The `openai` runner (`docs/contract.md#agent-runners`): a tool loop against any OpenAI-compatible
 * chat-completions server (OpenAI, OpenRouter, vLLM, llama.cpp, Ollama). The model may call
 * `terminal` and `comment_on_line` until it answers without tool calls; that message's content is
 * the answer, and the comments it left are its line comments. The rendered prompt (skill, framed
 * event data) is the user message as it is. After each model turn the run reports what it spent
 * (tokens, and their cost at `agent.prices`) and stops once the delivery's tokens, earlier attempts
 * included, pass `agent.max_tokens_per_delivery`. What the model has written and commented so far is
 * reported after each turn, so a run a limit stops can still be delivered (`agent.on_limit`).
 */
import {
  runLimitError,
  type LineComment,
  type ReviewConclusion,
  type RunRequest,
  type RunResult,
} from '@webhook-gateway/core';
import { wantsConclusion } from './conclusion-tool.js';
import { addUsage, emptyAccounting } from './accounting.js';
import { createChatCompletion, type ChatEndpoint } from './chat-client.js';
import { toAssistantReply, type ChatMessage, type ChatRequestBody } from './chat-schema.js';
import { openAISettings } from './openai-settings.js';
import { traceModelCall } from './run-spans.js';
import type { RetryPolicy } from './retry.js';
import { costOf, tokenBudgetExceeded, tokensSpentBefore } from './spending.js';
import { buildSystemPrompt } from './system-prompt.js';
import { deliveryRepository } from './terminal-repository.js';
import { answerToolCall, offeredTools, type ToolCallContext } from './tool-calls.js';

/** What tests (and embedders) may swap; production uses the defaults. */
export interface OpenAIRunnerDeps {
  /** Where the API key and the terminal's allowlisted variables come from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Upstream retries; default 3 retries from 1 s, doubling, at most 30 s apart. */
  retry?: RetryPolicy;
  /** Waits between upstream retries. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Runs the tool loop for one delivery.
 *
 * @example
 * hooks.run.for('openai').tapPromise('@webhook-gateway/agent', (request) => runOpenAI(request));
 */
export async function runOpenAI(
  request: RunRequest,
  deps: OpenAIRunnerDeps = {},
): Promise<RunResult> {
  const env = deps.env ?? process.env;
  const settings = openAISettings(request.agent, env);
  const { log, signal } = request;
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: buildSystemPrompt({
        terminal: settings.terminal.enabled,
        conclusion: wantsConclusion(request.routeConfig.deliver_extra),
        addition: settings.systemPrompt,
      }),
    },
    { role: 'user', content: request.prompt },
  ];
  const endpoint: ChatEndpoint = {
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    signal,
    ...(deps.retry ? { retry: deps.retry } : {}),
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  };
  const accounting = emptyAccounting(settings.model);
  const spentBefore = tokensSpentBefore(request.delivery);
  const limit = settings.maxTokensPerDelivery;
  // Earlier attempts may have used it all (a retry after a failed turn, a replay).
  if (limit !== undefined && spentBefore >= limit) {
    throw tokenBudgetExceeded(limit, spentBefore, request.delivery.attempts);
  }
  /** Hands core a copy of what this run has spent so far. */
  const report = (): void => request.reportAccounting(structuredClone(accounting));
  const lineComments: LineComment[] = [];
  let conclusion: ReviewConclusion | undefined;
  const concludes = wantsConclusion(request.routeConfig.deliver_extra);
  // The text of every turn so far: a stopped run's answer is all the model wrote.
  const texts: string[] = [];
  const reportProduced = (): void =>
    request.reportProduced?.({ answer: texts.join('\n\n'), lineComments: [...lineComments] });
  const tools = offeredTools(settings.terminal, concludes);
  const toolContext: ToolCallContext = {
    terminal: settings.terminal,
    env,
    credentials: request.credentials ?? {},
    home: request.home,
    journalId: request.delivery.id,
    repository: deliveryRepository(request.delivery.payload),
    signal,
    log,
    record: (call) => void accounting.toolCalls.push(call),
    comment: (comment) => lineComments.push(comment),
    ...(concludes
      ? {
          conclude: (given: ReviewConclusion) => {
            conclusion = given;
          },
        }
      : {}),
  };

  for (let turn = 1; turn <= settings.maxTurns; turn++) {
    const body: ChatRequestBody = {
      model: settings.model,
      messages,
      tools,
      ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    };
    const reply = await traceModelCall(settings.model, async () =>
      toAssistantReply(await createChatCompletion(body, endpoint), turn),
    );
    accounting.turns = turn;
    accounting.usage = addUsage(accounting.usage, reply.usage);
    if (settings.prices) accounting.cost = costOf(accounting.usage, settings.prices);
    report();
    const text = reply.content?.trim() ?? '';
    if (text !== '') {
      texts.push(text);
      reportProduced();
    }
    const spent = spentBefore + accounting.usage.totalTokens;
    if (limit !== undefined && spent > limit) {
      log.warn(
        { model: settings.model, turns: turn, total_tokens: spent, limit },
        'agent stopped: token budget of the delivery exceeded',
      );
      throw tokenBudgetExceeded(limit, spent, request.delivery.attempts);
    }
    if (reply.toolCalls.length === 0) {
      log.info(
        {
          model: settings.model,
          turns: turn,
          tool_calls: accounting.toolCalls.length,
          total_tokens: accounting.usage.totalTokens,
          cached_prompt_tokens: accounting.usage.cachedPromptTokens,
          line_comments: lineComments.length,
        },
        'agent answered',
      );
      return {
        answer: reply.content ?? '',
        accounting,
        ...(lineComments.length > 0 ? { lineComments } : {}),
        ...(conclusion ? { conclusion } : {}),
      };
    }
    messages.push({ role: 'assistant', content: reply.content, tool_calls: reply.toolCalls });
    // One after another, answered in the order asked: a later call may rely on an earlier one.
    for (const call of reply.toolCalls) {
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: await answerToolCall(call, toolContext),
      });
    }
    report();
    reportProduced();
  }
  throw runLimitError(
    'turns',
    settings.maxTurns,
    `agent stopped after ${settings.maxTurns} turns without a final answer (agent.max_turns)`,
  );
}
