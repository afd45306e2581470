/**
 * The last step before an answer leaves for a target: every configured secret, every credential
 * of the agent's environment and every well-known token shape in the answer and its line
 * comments becomes `[redacted]`, counted for the journal and the metrics.
 */
import { INSECURE_NO_AUTH, type GatewayConfig, type RouteConfig } from './config/schema.js';
import type { LineComment } from './delivery.js';
import type { Credentials } from './hooks.js';
import { createRedactor, secretsInEnv, secretsUnder, type Redactor } from './redaction.js';
import { routeSecrets } from './routes.js';

/** The values of the variables a config names for a credential (`api_key_env: LLM_CREDENTIAL`). */
function namedEnvValues(value: unknown, env: NodeJS.ProcessEnv, depth = 0): string[] {
  if (depth > 12 || value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    if (/(?:key|token|secret|password)_env$/i.test(key) && typeof child === 'string') {
      const named = env[child];
      return named === undefined ? [] : [named];
    }
    return namedEnvValues(child, env, depth + 1);
  });
}

/** The config's secrets and the environment's credentials, by environment, then by config. */
const configSecretsMade = new WeakMap<object, WeakMap<GatewayConfig, readonly string[]>>();

/**
 * The config's secrets (wherever a key names one) and the credential-named variables of `env`,
 * worked out once per config and environment: reading every variable of `process.env` cost more
 * than the rest of an attempt's redaction, and a config only changes by a reload, which makes a
 * new one (and reads the environment again).
 */
function configSecrets(config: GatewayConfig, env: NodeJS.ProcessEnv): readonly string[] {
  let byConfig = configSecretsMade.get(env);
  if (byConfig === undefined) {
    byConfig = new WeakMap();
    configSecretsMade.set(env, byConfig);
  }
  let secrets = byConfig.get(config);
  if (secrets === undefined) {
    secrets = [...secretsUnder(config), ...secretsInEnv(env), ...namedEnvValues(config, env)];
    byConfig.set(config, secrets);
  }
  return secrets;
}

/**
 * A redactor for one attempt: the config's secrets (wherever a key names one), the route's, the
 * delivery's credentials (`GH_TOKEN`, an App's installation token) and the credential-named
 * variables of the gateway's environment, which is what the agent's terminal can reach.
 */
export function outgoingRedactor(
  config: GatewayConfig,
  routeConfig: RouteConfig,
  credentials: Credentials,
  env: NodeJS.ProcessEnv,
): Redactor {
  const secrets = [
    ...configSecrets(config, env),
    ...secretsUnder(routeConfig),
    ...routeSecrets(routeConfig, config),
    ...Object.values(credentials),
  ].filter((secret) => secret !== INSECURE_NO_AUTH);
  return createRedactor(secrets);
}

/** An answer and its line comments as they may leave, and how many secrets were taken out. */
export interface OutgoingAnswer {
  answer: string;
  lineComments: LineComment[];
  redactions: number;
}

/** Redacts the answer and each line comment's body and suggested code. */
export function redactOutgoing(
  answer: string,
  lineComments: readonly LineComment[],
  redactor: Redactor,
): OutgoingAnswer {
  const summary = redactor.redact(answer);
  let redactions = summary.count;
  const comments = lineComments.map((comment) => {
    const body = redactor.redact(comment.body);
    const suggestion =
      comment.suggestion === undefined ? undefined : redactor.redact(comment.suggestion);
    const count = body.count + (suggestion?.count ?? 0);
    redactions += count;
    if (count === 0) return comment;
    return {
      ...comment,
      body: body.text,
      ...(suggestion === undefined ? {} : { suggestion: suggestion.text }),
    };
  });
  return { answer: summary.text, lineComments: comments, redactions };
}
