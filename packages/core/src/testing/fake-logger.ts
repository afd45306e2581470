/** A logger that keeps what it is told, for asserting on log lines. */
import type { Logger } from '../index.js';

export interface LogLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  fields: Record<string, unknown>;
  message: string;
}

export interface CapturingLogger {
  log: Logger;
  lines: LogLine[];
  /** Every line as JSON text, to check that no secret appears anywhere. */
  text(): string;
}

/** Only what the plugin calls (`info(fields, message)`, `child`) is implemented. */
export function capturingLogger(): CapturingLogger {
  const lines: LogLine[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const at =
      (level: LogLine['level']) =>
      (first: unknown, second?: unknown): void => {
        const fields =
          typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
        const message =
          typeof first === 'string' ? first : typeof second === 'string' ? second : '';
        lines.push({ level, fields: { ...bindings, ...fields }, message });
      };
    const logger = {
      trace: at('trace'),
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      fatal: at('fatal'),
      child: (more: Record<string, unknown>) => make({ ...bindings, ...more }),
    };
    return logger as unknown as Logger;
  };
  return { log: make({}), lines, text: () => JSON.stringify(lines) };
}
