/**
 * The forge's App API, as the App itself (a JWT signed with its private key) and as one of its
 * installations (an installation token): `GET /app`, the token exchange, and the App-level
 * reads other commands need. Answers pass a zod schema; a failure names the endpoint and the
 * forge's message, never a key, JWT or token.
 */
import githubAppJwt from 'universal-github-app-jwt';
import { z } from 'zod';
import { AppApiError, callAppApi, sendAppApi, type AppApiAnswer } from './app-api-call.js';

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

/** The App's own answer to `GET /app`. */
const appSchema = z.object({ id: z.number(), slug: z.string().min(1), name: z.string() });
export type AppIdentity = z.infer<typeof appSchema>;

const tokenSchema = z.object({ token: z.string().min(1), expires_at: z.string() });

/** An installation's permissions as the forge names them (`contents`, `pull_requests`, …). */
export type AppPermissions = Readonly<Record<string, 'read' | 'write'>>;

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
    const authorization = `Bearer ${await this.jwt()}`;
    return callAppApi({ apiUrl: this.apiUrl, method, path, authorization, schema, body });
  }

  /**
   * `method path` as the App, its answer as the forge sent it (status, headers, text), whatever
   * the status: for callers that read headers (a `Link` cursor, `Retry-After`) and word their own
   * failures. Throws an `AppApiError` only when no answer came.
   *
   * @example await client.requestAsApp('GET', '/app/hook/deliveries?per_page=100')
   */
  async requestAsApp(method: string, path: string, signal?: AbortSignal): Promise<AppApiAnswer> {
    const authorization = `Bearer ${await this.jwt()}`;
    const { status, headers, body } = await sendAppApi({
      apiUrl: this.apiUrl,
      method,
      path,
      authorization,
      ...(signal ? { signal } : {}),
    });
    return { status, headers, body };
  }

  /**
   * `method path` as an installation, with a token from `exchange`.
   *
   * @example await client.asInstallation(token, 'GET', '/installation/repositories', schema)
   */
  asInstallation<T>(token: string, method: string, path: string, schema: z.ZodType<T>): Promise<T> {
    return callAppApi({
      apiUrl: this.apiUrl,
      method,
      path,
      authorization: `token ${token}`,
      schema,
    });
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
   * `POST /app/installations/{id}/access_tokens` for `repositories` only (none listed: every
   * repository of the installation), with `permissions` only. The error names the installation.
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
        repositories.length > 0 ? { repositories, permissions } : { permissions },
      );
      const expiresAt = Date.parse(answer.expires_at);
      if (Number.isNaN(expiresAt)) {
        throw new AppApiError(`the forge's expires_at "${answer.expires_at}" is not a date`, 502);
      }
      return { token: answer.token, expiresAt };
    } catch (error) {
      if (!(error instanceof AppApiError)) throw error;
      throw new AppApiError(
        `the installation token for installation ${installationId} (${repositories.join(', ') || 'all repositories'}) was refused: ${error.message}`,
        error.status,
      );
    }
  }
}
