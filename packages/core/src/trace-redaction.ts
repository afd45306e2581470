/**
 * The log's redaction rules on a tracer: an attribute under a secret key name is censored whole,
 * and every string value (an error's message too) has the config's secrets, the environment's
 * credentials and well-known token shapes replaced, before the tracer sees it.
 */
import { errorMessage } from './errors.js';
import { REDACTED, SECRET_KEY_NAMES, type Redactor } from './redaction.js';
import type { GatewayTracer, TraceAttributes, TraceSpan } from './tracing.js';

/** The last word of a dotted attribute key (`http.request.header.authorization` → `authorization`). */
const SECRET_KEY = new RegExp(
  `(?:^|[._])(?:${[...SECRET_KEY_NAMES, 'authorization', 'cookie'].join('|')})$`,
  'i',
);

function redactedAttributes(attributes: TraceAttributes, redactor: Redactor): TraceAttributes {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (SECRET_KEY.test(key)) out[key] = REDACTED;
    else out[key] = typeof value === 'string' ? redactor.redact(value).text : value;
  }
  return out;
}

class RedactedSpan implements TraceSpan {
  constructor(
    readonly inner: TraceSpan,
    private readonly redactor: () => Redactor,
  ) {}

  setAttributes(attributes: TraceAttributes): void {
    this.inner.setAttributes(redactedAttributes(attributes, this.redactor()));
  }

  addEvent(name: string, attributes?: TraceAttributes): void {
    this.inner.addEvent(name, attributes && redactedAttributes(attributes, this.redactor()));
  }

  recordError(error: unknown): void {
    this.inner.recordError(new Error(this.redactor().redact(errorMessage(error)).text));
  }

  end(endTime?: number): void {
    this.inner.end(endTime);
  }

  get traceparent(): string {
    return this.inner.traceparent;
  }
}

/** `tracer` with every attribute, event and error redacted by `redactor` (read per span). */
export function redactingTracer(tracer: GatewayTracer, redactor: () => Redactor): GatewayTracer {
  return {
    startSpan(name, options = {}) {
      const parent = options.parent instanceof RedactedSpan ? options.parent.inner : options.parent;
      const span = tracer.startSpan(name, {
        ...options,
        ...(parent !== undefined ? { parent } : {}),
        ...(options.attributes
          ? { attributes: redactedAttributes(options.attributes, redactor()) }
          : {}),
      });
      return new RedactedSpan(span, redactor);
    },
    onDropped: (listener) => tracer.onDropped(listener),
    shutdown: () => tracer.shutdown(),
  };
}
