import { describe, expect, it } from 'vitest';
import { createRedactor } from './redaction.js';
import { redactingTracer } from './trace-redaction.js';
import { recordingTracer } from './testing/recording-tracer.js';
import type { TraceSpan } from './tracing.js';

describe('redactingTracer', () => {
  const secret = 'configured-secret-value-42';
  const token = `ghp_${'a'.repeat(36)}`;

  it('censors secret-named attributes and secrets and token shapes in every string', () => {
    const { tracer, seen } = recordingTracer();
    const redacting = redactingTracer(tracer, () => createRedactor([secret]));
    const span = redacting.startSpan('deliver', {
      attributes: { 'http.request.header.authorization': 'Bearer x', note: `has ${secret}` },
    });
    span.setAttributes({ api_key: 'k', 'webhook_gateway.route': 'reviews', count: 3 });
    span.addEvent('retry', { reason: `token ${token}` });
    span.recordError(new Error(`forge said 401 for ${secret}`));
    expect(seen[0]?.options.attributes).toEqual({
      'http.request.header.authorization': '[redacted]',
      note: 'has [redacted]',
    });
    expect(seen[0]?.calls).toEqual([
      ['attributes', { api_key: '[redacted]', 'webhook_gateway.route': 'reviews', count: 3 }],
      ['event', 'retry', { reason: 'token [redacted]' }],
      ['error', 'forge said 401 for [redacted]'],
    ]);
  });

  it('redacts a value it has seen before again after a reload brings a new secret', () => {
    const { tracer, seen } = recordingTracer();
    let redactor = createRedactor([]);
    const redacting = redactingTracer(tracer, () => redactor);
    const value = `note ${secret}`;
    redacting.startSpan('first', { attributes: { note: value } });
    redactor = createRedactor([secret]);
    redacting.startSpan('second', { attributes: { note: value } });
    expect(seen.map((span) => span.options.attributes)).toEqual([
      { note: value },
      { note: 'note [redacted]' },
    ]);
  });

  it('hands its own spans to the tracer as parents, unwrapped', () => {
    const { tracer, seen } = recordingTracer();
    const redacting = redactingTracer(tracer, () => createRedactor([]));
    const parent = redacting.startSpan('attempt');
    redacting.startSpan('render', { parent });
    expect(seen[1]?.options.parent).not.toBe(parent);
    expect((seen[1]?.options.parent as TraceSpan).traceparent).toBe(parent.traceparent);
  });
});
