/**
 * The chat-completions wire format: the messages and tools we send, and the zod schema every
 * answer passes before the runner looks at it.
 */
import { z } from 'zod';

/** A function call the model asked for; `arguments` is JSON text written by the model. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool offered to the model, described by a JSON Schema of its arguments. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The body of `POST {base_url}/chat/completions`. */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  temperature?: number;
}

const toolCallSchema = z.object({
  // Some local servers leave out the id; the runner makes one up so tool results can refer to it.
  id: z.string().min(1).nullish(),
  type: z.string().nullish(),
  function: z.object({
    name: z.string(),
    // The spec says a JSON string; a few servers send the object itself.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

const tokenCount = z.number().nonnegative().nullish();

/** What a chat-completions server answers (the parts the runner uses). */
export const chatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1, 'no choices in the answer'),
  usage: z
    .object({
      prompt_tokens: tokenCount,
      completion_tokens: tokenCount,
      total_tokens: tokenCount,
      // OpenAI's share of prompt_tokens served from its prompt cache; other servers leave it out.
      prompt_tokens_details: z.object({ cached_tokens: tokenCount }).nullish(),
    })
    .nullish(),
});

export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** Token counts of one answer, zero where the server did not say. */
export interface TokenUsage {
  promptTokens: number;
  /** The part of `promptTokens` served from the provider's prompt cache, not on top of them. */
  cachedPromptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One model turn as the runner uses it. */
export interface AssistantReply {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: TokenUsage;
}

/** Turns a validated answer into the runner's shape: ids filled in, arguments as JSON text. */
export function toAssistantReply(completion: ChatCompletion, turn: number): AssistantReply {
  // The schema guarantees at least one choice.
  const choice = completion.choices[0] as ChatCompletion['choices'][number];
  const toolCalls = (choice.message.tool_calls ?? []).map((call, index): ToolCall => ({
    id: call.id ?? `call_${turn}_${index}`,
    type: 'function',
    function: {
      name: call.function.name,
      arguments:
        typeof call.function.arguments === 'string'
          ? call.function.arguments
          : JSON.stringify(call.function.arguments ?? {}),
    },
  }));
  const usage = completion.usage;
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  // A part of the prompt tokens: a server that says more were cached than sent is held to them.
  const cachedPromptTokens = Math.min(
    usage?.prompt_tokens_details?.cached_tokens ?? 0,
    promptTokens,
  );
  return {
    content: choice.message.content ?? null,
    toolCalls,
    finishReason: choice.finish_reason ?? null,
    usage: {
      promptTokens,
      cachedPromptTokens,
      completionTokens,
      totalTokens: usage?.total_tokens ?? promptTokens + completionTokens,
    },
  };
}
