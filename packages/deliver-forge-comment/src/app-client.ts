/**
 * The forge's App API, as the App itself (a JWT signed with its private key) and as one of its
 * installations (an installation token): `GET /app`, the token exchange, and the App-level
 * reads other commands need. Answers pass a zod schema; a failure names the endpoint and the
 * forge's message, never a key, JWT or token.
 */
import githubAppJwt from 'universal-github-app-jwt';
import { fetch } from 'undici';
import { z } from 'zod';

/** `https://api.github.com`, the API base when `platforms.forge.api_url` is not set. */
export const DEFAULT_API_URL = 'https://api.github.com';

export interface AppClientOptions {
  appId: number;
  /** The App's private key, PEM. */
  privateKey: string;
  /** The REST API base, without a trailing slash (`https://ghe.example.com/api/v3`). */
  apiUrl: string;
  /** The clock, in ms (tests move it on). */
  now?: () => number;
}

/** A call to the App API that failed: the forge's status and message. */
class AppApiError extends Error {
  /** 401, 404 and 422 cannot succeed by asking again; 5xx and 429 may. */
  readonly retryable: boolean;
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'AppApiError';
    this.retryable = status === 429 || status >= 500 || status === 0;
  }
}

const messageSchema = z.object({ message: z.string() }).partial();

/** The App's own answer to `GET /app`. */
const appSchema = z.object({ id: z.number(), slug: z.string().min(1), name: z.string() });
export type AppIdentity = z.infer<typeof appSchema>;

const tokenSchema = z.object({ token: z.string().min(1), expires_at: z.string() });

/** An installation's permissions as the forge names them (`contents`, `pull_requests`, …). */
export type AppPermissions = Readonly<Record<string, 'read' | 'write'>>;

/** An answer of the App API as the forge sent it. */
export interface AppApiAnswer {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

export interface InstallationToken {
  token: string;
  /** When the forge stops accepting it, in ms. */
  expiresAt: number;
}

export class AppClient {
  readonly apiUrl: string;
  private readonly now: () => number;
  private identityAnswer: Promise<AppIdentity> | undefined;

  constructor(private readonly options: AppClientOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
  }

  /** A JWT for the App (iat 30 s in the past, for clock skew; valid 10 minutes). */
  async jwt(): Promise<string> {
    const { token } = await githubAppJwt({
      id: this.options.appId,
      privateKey: this.options.privateKey,
      now: Math.floor(this.now() / 1000),
    });
    return token;
  }

  /**
   * `method path` as the App; its JSON answer checked with `schema`. `body` is sent as JSON.
   *
   * @example await client.asApp('GET', '/app/installations', z.array(installation))
   */
  async asApp<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    return this.call(method, path, `Bearer ${await this.jwt()}`, schema, body);
  }

  /** `GET /app`, asked once per client: the App's slug names its bot, `<slug>[bot]`. */
  identity(): Promise<AppIdentity> {
    this.identityAnswer ??= this.asApp('GET', '/app', appSchema).catch((error: unknown) => {
      this.identityAnswer = undefined;
      throw error;
    });
    return this.identityAnswer;
  }

  /**
   * `POST /app/installations/{id}/access_tokens` for `repositories` only, with `permissions`
   * only. The error names the installation.
   */
  async exchange(
    installationId: number,
    repositories: readonly string[],
    permissions: AppPermissions,
  ): Promise<InstallationToken> {
    try {
      const answer = await this.asApp(
        'POST',
        `/app/installations/${installationId}/access_tokens`,
        tokenSchema,
        { repositories, permissions },
      );
      const expiresAt = Date.parse(answer.expires_at);
      if (Number.isNaN(expiresAt)) {
        throw new AppApiError(`the forge's expires_at "${answer.expires_at}" is not a date`, 502);
      }
      return { token: answer.token, expiresAt };
    } catch (error) {
      if (!(error instanceof AppApiError)) throw error;
      throw new AppApiError(
        `the installation token for installation ${installationId} (${repositories.join(', ')}) was refused: ${error.message}`,
        error.status,
      );
    }
  }

  /**
   * `method path` as the App, its answer as the forge sent it (status, headers, text), whatever
   * the status: for callers that read headers (a `Link` cursor, `Retry-After`) and word their own
   * failures. Throws only when no answer came.
   *
   * @example await client.requestAsApp('GET', '/app/hook/deliveries?per_page=100')
   */
  async requestAsApp(method: string, path: string, signal?: AbortSignal): Promise<AppApiAnswer> {
    return this.send(method, path, `Bearer ${await this.jwt()}`, undefined, signal);
  }

  private async call<T>(
    method: string,
    path: string,
    authorization: string,
    schema: z.ZodType<T>,
    body: unknown,
  ): Promise<T> {
    const what = `${method} ${this.apiUrl}${path}`;
    const answer = await this.send(method, path, authorization, body);
    let json: unknown;
    try {
      json = answer.body === '' ? null : JSON.parse(answer.body);
    } catch {
      json = undefined;
    }
    if (answer.status < 200 || answer.status >= 300) {
      const forgeMessage = messageSchema.safeParse(json).data?.message ?? answer.statusText;
      throw new AppApiError(`${what}: HTTP ${answer.status}: ${forgeMessage}`, answer.status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new AppApiError(`${what} answered an unexpected shape: ${parsed.error.message}`, 502);
    }
    return parsed.data;
  }

  /** One request; an `AppApiError` (status 0) only when the forge could not be reached. */
  private async send(
    method: string,
    path: string,
    authorization: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<AppApiAnswer & { statusText: string }> {
    const what = `${method} ${this.apiUrl}${path}`;
    const timeout = AbortSignal.timeout(30_000);
    let response;
    try {
      response = await fetch(`${this.apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'webhook-gateway',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      throw new AppApiError(`${what} failed: ${String(cause ?? error)}`, 0);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name.toLowerCase()] = value;
    return {
      status: response.status,
      statusText: response.statusText,
      headers,
      body: await response.text(),
    };
  }
}
