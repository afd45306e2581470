import { describe, expect, it } from 'vitest';
import { agentAccountingSchema, lineCommentSchema } from './delivery-schema.js';

describe('agentAccountingSchema', () => {
  it('keeps the cached prompt tokens of a row', () => {
    const agent = {
      runner: 'openai',
      usage: {
        promptTokens: 2000,
        cachedPromptTokens: 1536,
        completionTokens: 90,
        totalTokens: 2090,
      },
    };
    expect(agentAccountingSchema.parse(agent)).toEqual(agent);
  });

  it('reads a row written before cached prompt tokens were counted', () => {
    const agent = {
      runner: 'openai',
      usage: { promptTokens: 2000, completionTokens: 90, totalTokens: 2090 },
    };
    expect(agentAccountingSchema.parse(agent)).toEqual(agent);
  });

  it('refuses cached prompt tokens that are not a number', () => {
    const usage = {
      promptTokens: 1,
      cachedPromptTokens: 'all',
      completionTokens: 1,
      totalTokens: 2,
    };
    expect(agentAccountingSchema.safeParse({ runner: 'openai', usage }).success).toBe(false);
  });
});

describe('lineCommentSchema', () => {
  it('keeps a suggestion and the start of its range', () => {
    const comment = { path: 'a.ts', line: 5, start_line: 3, body: 'x', suggestion: 'y' };
    expect(lineCommentSchema.parse(comment)).toEqual(comment);
  });

  it('refuses a range that starts after its line, naming start_line', () => {
    const parsed = lineCommentSchema.safeParse({ path: 'a.ts', line: 3, start_line: 5, body: 'x' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      [
        'start_line',
        'start_line must not be after line (a range is start_line to line, both included)',
      ],
    ]);
  });

  it('refuses a suggestion that is not text', () => {
    const parsed = lineCommentSchema.safeParse({ path: 'a.ts', line: 3, body: 'x', suggestion: 4 });
    expect(parsed.error?.issues[0]?.path).toEqual(['suggestion']);
  });
});
