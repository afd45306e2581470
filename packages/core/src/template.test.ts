import { describe, expect, it } from 'vitest';
import {
  RAW_PAYLOAD_LIMIT,
  rawPayloadText,
  renderDefaultPrompt,
  renderDeliverExtra,
  renderTemplate,
} from './template.js';

const payload = {
  number: 42,
  draft: false,
  merged_by: null,
  pull_request: {
    title: 'Fix {number} parsing',
    labels: [{ name: 'bug' }],
    user: { login: 'octo' },
  },
  'dotted-key_1': 'ok',
};

describe('renderTemplate', () => {
  it('replaces top-level and nested paths', () => {
    expect(renderTemplate('PR #{number} by {pull_request.user.login}', payload)).toBe(
      'PR #42 by octo',
    );
  });

  it('writes numbers, booleans and null as JSON text', () => {
    expect(renderTemplate('{number} {draft} {merged_by}', payload)).toBe('42 false null');
  });

  it('writes objects and arrays as 2-space JSON', () => {
    expect(renderTemplate('{pull_request.labels}', payload)).toBe(
      '[\n  {\n    "name": "bug"\n  }\n]',
    );
  });

  it('keeps a path that does not exist as written', () => {
    expect(renderTemplate('{missing.path} and {number.deeper}', payload)).toBe(
      '{missing.path} and {number.deeper}',
    );
  });

  it('never expands placeholders inside substituted text', () => {
    expect(renderTemplate('{pull_request.title}', payload)).toBe('Fix {number} parsing');
  });

  it('treats nothing but {path} as syntax', () => {
    expect(renderTemplate('{{number}} { number } {} $number {a b}', payload)).toBe(
      '{42} { number } {} $number {a b}',
    );
  });

  it('follows array indices and keys with dashes and underscores', () => {
    expect(renderTemplate('{pull_request.labels.0.name} {dotted-key_1}', payload)).toBe('bug ok');
  });

  it('never reaches outside the payload through prototype keys', () => {
    expect(renderTemplate('{constructor} {__proto__} {pull_request.labels.length}', payload)).toBe(
      '{constructor} {__proto__} {pull_request.labels.length}',
    );
  });
});

describe('renderTemplate: the reserved {_gateway.…} prefix', () => {
  const gateway = { route: 'review', delivery_id: 'd-1', previous_head_sha: '' };

  it('reads gateway values, never the payload', () => {
    const hostile = { _gateway: { route: 'from-the-payload' }, number: 7 };
    expect(
      renderTemplate('{_gateway.route} #{number} {_gateway.delivery_id}', hostile, gateway),
    ).toBe('review #7 d-1');
  });

  it('writes an empty value as empty, and keeps an unknown gateway key as written', () => {
    expect(renderTemplate('[{_gateway.previous_head_sha}] {_gateway.nope}', {}, gateway)).toBe(
      '[] {_gateway.nope}',
    );
  });

  it('keeps a gateway placeholder as written when the payload has that path', () => {
    expect(renderTemplate('{_gateway.route}', { _gateway: { route: 'x' } })).toBe(
      '{_gateway.route}',
    );
  });

  it('never reaches gateway keys through prototype names', () => {
    expect(renderTemplate('{_gateway.constructor}', {}, gateway)).toBe('{_gateway.constructor}');
  });
});

describe('{_gateway.raw}: the whole payload', () => {
  it('is the payload as 2-space JSON, not expanded again, and ignores a payload key _gateway', () => {
    const payload = { _gateway: { raw: 'spoofed' }, title: '{number}', number: 7 };
    const gateway = { raw: () => rawPayloadText(payload) };
    expect(renderTemplate('Event:\n{_gateway.raw}', payload, gateway)).toBe(
      `Event:\n${JSON.stringify(payload, null, 2)}`,
    );
  });

  it(`is cut after ${RAW_PAYLOAD_LIMIT} characters, saying how many were left out`, () => {
    const payload = { body: 'x'.repeat(RAW_PAYLOAD_LIMIT) };
    const whole = JSON.stringify(payload, null, 2);
    const text = rawPayloadText(payload);
    expect(text).toBe(
      `${whole.slice(0, RAW_PAYLOAD_LIMIT)}\n… [cut: ${whole.length - RAW_PAYLOAD_LIMIT} more characters]`,
    );
  });

  it('keeps a payload of exactly the limit whole', () => {
    const body = 'y'.repeat(RAW_PAYLOAD_LIMIT - '{\n  "b": ""\n}'.length);
    expect(rawPayloadText({ b: body })).toBe(JSON.stringify({ b: body }, null, 2));
    expect(rawPayloadText({ b: body }).length).toBe(RAW_PAYLOAD_LIMIT);
  });

  it("has Hermes' name {__raw__}, never read from a payload key of that name", () => {
    const payload = { __raw__: 'spoofed', action: 'closed', number: 7 };
    const gateway = { raw: () => rawPayloadText(payload) };
    expect(renderTemplate('Action={action} Raw={__raw__}', payload, gateway)).toBe(
      `Action=closed Raw=${JSON.stringify(payload, null, 2)}`,
    );
  });

  it('is made only when a template uses it', () => {
    let made = 0;
    const gateway = { route: 'r', raw: () => String(++made) };
    expect(renderTemplate('{_gateway.route}', {}, gateway)).toBe('r');
    expect(made).toBe(0);
    expect(renderTemplate('{_gateway.raw}', {}, gateway)).toBe('1');
  });
});

describe('renderDefaultPrompt', () => {
  it('gives the event, the route and the payload as indented JSON', () => {
    const prompt = renderDefaultPrompt('reviews', 'pull_request', { number: 1 });
    expect(prompt).toContain('"pull_request"');
    expect(prompt).toContain('"reviews"');
    expect(prompt).toContain('{\n  "number": 1\n}');
  });
});

describe('renderDeliverExtra', () => {
  it('renders string values and keeps the others', () => {
    expect(renderDeliverExtra({ pr_number: '{number}', keep: 3 }, payload)).toEqual({
      pr_number: '42',
      keep: 3,
    });
  });
});
