/** Gateway configs of the benchmark: loopback, port 0, one signed route, limits out of the way. */
import { BENCH_SECRET } from './payload.mjs';

export const ROUTE = 'bench';
const PROMPT = 'Review PR #{number}: {pull_request.title}';

/**
 * The default embedded store (SQLite journal at `<home>/state.db`), the `log` target and the
 * `dry-run` agent unless `agent` says otherwise; `extra` overrides webhook settings; with
 * `otlpEndpoint`, traces exported there (`observability.otlp`); `route` adds to the route's keys.
 * @param {{ agent?: Record<string, unknown>, extra?: Record<string, unknown>, otlpEndpoint?: string, route?: Record<string, unknown> }} [options]
 */
export function gatewayConfig(options = {}) {
  return {
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.otlpEndpoint
      ? { observability: { otlp: { endpoint: options.otlpEndpoint } } }
      : {}),
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          port: 0,
          secret: BENCH_SECRET,
          // The benchmark measures the pipeline, not the limiter refusing it.
          rate_limit: 100_000_000,
          ...options.extra,
          routes: { [ROUTE]: { events: ['pull_request'], prompt: PROMPT, ...options.route } },
        },
      },
    },
  };
}
