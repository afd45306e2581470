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

/** Shorter than every configured secret kept (8 characters) and every token shape: nothing to take out. */
const SHORTEST_REDACTABLE = 8;
/** How many distinct values a redactor remembers (route names, events, targets, models repeat). */
const REMEMBERED_VALUES = 512;

/**
 * The redaction of span attributes, remembered per key verdict and per value: the same few keys
 * and values come back on every span, and running every token shape over them again was most of
 * a traced request's cost. Made again with its redactor (after a reload).
 */
class AttributeRedaction {
  private readonly secretKeys = new Map<string, boolean>();
  private readonly values = new Map<string, string>();

  constructor(readonly redactor: Redactor) {}

  attributes(attributes: TraceAttributes): TraceAttributes {
    const out: Record<string, string | number | boolean | undefined> = {};
    for (const key in attributes) {
      const value = attributes[key];
      if (this.isSecretKey(key)) out[key] = REDACTED;
      else out[key] = typeof value === 'string' ? this.text(value) : value;
    }
    return out;
  }

  text(value: string): string {
    if (value.length < SHORTEST_REDACTABLE) return value;
    const known = this.values.get(value);
    if (known !== undefined) return known;
    const redacted = this.redactor.redact(value).text;
    // Unique values (delivery ids) would crowd out the repeating ones: start over when full.
    if (this.values.size >= REMEMBERED_VALUES) this.values.clear();
    this.values.set(value, redacted);
    return redacted;
  }

  private isSecretKey(key: string): boolean {
    let secret = this.secretKeys.get(key);
    if (secret === undefined) {
      secret = SECRET_KEY.test(key);
      this.secretKeys.set(key, secret);
    }
    return secret;
  }
}

class RedactedSpan implements TraceSpan {
  constructor(
    readonly inner: TraceSpan,
    private readonly redaction: () => AttributeRedaction,
  ) {}

  setAttributes(attributes: TraceAttributes): void {
    this.inner.setAttributes(this.redaction().attributes(attributes));
  }

  addEvent(name: string, attributes?: TraceAttributes): void {
    this.inner.addEvent(name, attributes && this.redaction().attributes(attributes));
  }

  recordError(error: unknown): void {
    this.inner.recordError(new Error(this.redaction().redactor.redact(errorMessage(error)).text));
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
  let redaction: AttributeRedaction | undefined;
  const current = (): AttributeRedaction => {
    const now = redactor();
    if (redaction?.redactor !== now) redaction = new AttributeRedaction(now);
    return redaction;
  };
  return {
    startSpan(name, options = {}) {
      const parent = options.parent instanceof RedactedSpan ? options.parent.inner : options.parent;
      const span = tracer.startSpan(name, {
        ...options,
        ...(parent !== undefined ? { parent } : {}),
        ...(options.attributes ? { attributes: current().attributes(options.attributes) } : {}),
      });
      return new RedactedSpan(span, current);
    },
    onDropped: (listener) => tracer.onDropped(listener),
    shutdown: () => tracer.shutdown(),
  };
}
