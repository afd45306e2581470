/**
 * How a hook's log talks to the forge's API: an answer of 400 or more is a `ReconcileFailure`
 * that says what to do, and a body is JSON of a known shape or a failure naming the endpoint.
 */
import type { z } from 'zod';
import {
  failureOfResponse,
  ReconcileFailure,
  type ApiResponse,
  type FailureContext,
} from './failures.js';

/** Calls the forge's API (bound to the CLI, its environment and timeout). */
export type ApiCaller = (method: 'GET' | 'POST', endpoint: string) => Promise<ApiResponse>;

/** The API call of one hook's log: failures carry the hook and the time of the answer. */
export function hookCaller(options: {
  hook: string;
  api: ApiCaller;
  context: Omit<FailureContext, 'hook'>;
  now: () => number;
}): ApiCaller {
  const context: FailureContext = { ...options.context, hook: options.hook };
  return async (method, endpoint) => {
    const response = await options.api(method, endpoint);
    if (response.status >= 400) throw failureOfResponse(response, context, options.now());
    return response;
  };
}

/** The answer's body read with `schema`; `forge` names the forge in the message. */
export function parseAnswer<T>(
  schema: z.ZodType<T>,
  response: ApiResponse,
  what: string,
  forge = 'forge',
): T {
  let value: unknown;
  try {
    value = JSON.parse(response.body);
  } catch {
    throw new ReconcileFailure('forge-error', `the ${forge}'s answer to ${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ReconcileFailure(
      'forge-error',
      `the ${forge}'s answer to ${what} has an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  }
  return parsed.data;
}
