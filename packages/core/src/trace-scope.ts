/**
 * The span a step of an attempt runs in, carried through its awaits (AsyncLocalStorage), so a
 * plugin's model call or forge call becomes a child span without a span in every request type.
 * Nothing is stored unless a tracer is configured: `traceStep` then only calls its function.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GatewayTracer, TraceAttributes, TraceSpan } from './tracing.js';

interface TraceScope {
  tracer: GatewayTracer;
  span: TraceSpan;
}

const scopes = new AsyncLocalStorage<TraceScope>();

/** Runs `fn` with `span` as the parent of the steps it traces. */
export function inTraceScope<T>(tracer: GatewayTracer, span: TraceSpan, fn: () => T): T {
  return scopes.run({ tracer, span }, fn);
}

/**
 * Runs `fn` as a child span named `name` of the current step, ended when it settles (failed when
 * it throws); without a traced attempt around it, just runs `fn` (with no span).
 *
 * @example
 * const reply = await traceStep('chat gpt-4o', { 'gen_ai.request.model': 'gpt-4o' }, async (span) => {
 *   const reply = await callModel();
 *   span?.setAttributes({ 'gen_ai.usage.input_tokens': reply.usage.prompt_tokens });
 *   return reply;
 * });
 */
export async function traceStep<T>(
  name: string,
  attributes: TraceAttributes,
  fn: (span: TraceSpan | undefined) => Promise<T>,
  kind: 'client' | 'internal' = 'internal',
): Promise<T> {
  const scope = scopes.getStore();
  if (!scope) return fn(undefined);
  const span = scope.tracer.startSpan(name, { parent: scope.span, attributes, kind });
  try {
    return await scopes.run({ tracer: scope.tracer, span }, () => fn(span));
  } catch (error) {
    span.recordError(error);
    throw error;
  } finally {
    span.end();
  }
}
