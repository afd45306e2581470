/**
 * The App half of the TLS fake forge: JWTs verified with the App's public key (RS256), installation
 * tokens issued with an `expires_at` on the fake's own clock and recorded with the repositories
 * and permissions asked for, and the App endpoints (`/app`, `/app/installations`,
 * `/app/hook/config`, `/app/hook/deliveries`, `/app-manifests/{code}/conversions`,
 * `/installation/repositories`). It also plays the forge's side of the manifest flow: the
 * browser's form POST to `/settings/apps/new` (or an organisation's) is checked and answered
 * with the forge's redirect to the manifest's `redirect_url` with a code and the page's `state`.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { z } from 'zod';

interface FakeInstallation {
  id: number;
  /** The account it is installed on. */
  account: string;
  /** `owner/name` of each repository it may reach. */
  repositories: string[];
  /** `all` or `selected` (the default): how the account gave it its repositories. */
  repositorySelection?: 'all' | 'selected';
  /** `Organization` (the default) or `User`. */
  accountType?: 'Organization' | 'User';
}

/**
 * A GitHub App manifest as the forge takes it (its documented keys; `url` and `hook_attributes.url`
 * required). Unknown keys are refused, so a misspelt key fails the test.
 */
const manifestSchema = z.strictObject({
  name: z.string().min(1).max(34).optional(),
  url: z.url(),
  description: z.string().optional(),
  hook_attributes: z.strictObject({ url: z.url(), active: z.boolean().optional() }).optional(),
  redirect_url: z.url().optional(),
  callback_urls: z.array(z.url()).max(10).optional(),
  setup_url: z.url().optional(),
  public: z.boolean().optional(),
  default_events: z.array(z.string()).optional(),
  default_permissions: z.record(z.string(), z.enum(['read', 'write', 'admin'])).optional(),
  request_oauth_on_install: z.boolean().optional(),
  setup_on_update: z.boolean().optional(),
});
type FakeManifest = z.infer<typeof manifestSchema>;

/** One form POST of a manifest, as the browser sent it. */
interface FakeManifestPost {
  manifest: FakeManifest;
  /** The organisation of `/organizations/{org}/settings/apps/new`; none for a personal App. */
  org: string | undefined;
  /** The `state` query parameter of the form's action. */
  state: string | null;
}

/** A delivery in the App's hook log, as `GET /app/hook/deliveries` lists it. */
interface FakeHookDelivery {
  id: number;
  guid: string;
  event: string;
  action: string | null;
  status_code: number;
  delivered_at: string;
  redelivery: boolean;
}

export interface FakeAppOptions {
  id: number;
  slug: string;
  /** The App's public key, PEM: every JWT is verified with it. */
  publicKey: string;
  installations: FakeInstallation[];
  /** `GET /app/hook/config`. */
  hookConfig?: { url: string; content_type: string; insecure_ssl: string };
  /** What `POST /app-manifests/{code}/conversions` answers for its code, besides the manifest. */
  conversion?: { code: string; pem: string; webhook_secret: string };
  /** How long a token lives; the forge's is an hour. */
  tokenLifetimeMs?: number;
}

/** One token exchange as the fake recorded it. */
interface FakeExchange {
  installationId: number;
  repositories: string[];
  permissions: Record<string, string>;
  /** The answer's status. */
  status: number;
}

interface IssuedToken {
  installationId: number;
  repositories: string[];
  permissions: Record<string, string>;
  expiresAt: number;
}

const exchangeSchema = z.strictObject({
  repositories: z.array(z.string()).optional(),
  permissions: z.record(z.string(), z.enum(['read', 'write'])).optional(),
});
const jwtHeader = z.object({ alg: z.literal('RS256'), typ: z.literal('JWT').optional() });
const jwtClaims = z.object({
  iat: z.number(),
  exp: z.number(),
  iss: z.union([z.number(), z.string()]),
});

type Send = (status: number, value: unknown, headers?: Record<string, string>) => void;

/** A call made with an installation token the fake accepted (live, and scoped to the call). */
interface FakeTokenUse {
  /** `METHOD /path`. */
  request: string;
  /** `owner/name` of each repository the token may reach. */
  repositories: string[];
}

/** The form page's path: a personal App's, or an organisation's (`org`). */
const NEW_APP_PATH = /^\/(?:organizations\/([^/]+)\/)?settings\/apps\/new$/;

export interface FakeApp {
  /** The App's slug: its bot is `<slug>[bot]`. */
  slug: string;
  /** Every exchange, in order. */
  exchanges: FakeExchange[];
  /** Every call an installation token was accepted for, in order. */
  tokenUses: FakeTokenUse[];
  /** Every JWT presented to an App endpoint (accepted or not): what must stay secret. */
  jwts: string[];
  /** Every installation token issued, in order: what must stay secret. */
  issuedTokens(): string[];
  /** Every `POST /app/hook/deliveries/{id}/attempts`, by delivery id. */
  redeliveries: number[];
  /** The manifests posted through `/settings/apps/new` (the browser's form), parsed. */
  manifests: FakeManifestPost[];
  /** The fake's clock, in ms: tokens expire against it. */
  now(): number;
  /** Moves the fake's clock on. */
  advance(ms: number): void;
  /** The next `count` exchanges answer `status` with `message`. */
  failExchanges(status: number, message: string, count?: number): void;
  /** Sets the App's hook log (newest first). */
  setHookDeliveries(deliveries: FakeHookDelivery[]): void;
  /** Sets `GET /app/hook/config`. */
  setHookConfig(config: { url: string; content_type: string; insecure_ssl: string }): void;
  /** The issued token's grant when `authorization` (`token …`) is live, else why not. */
  grant(authorization: string | undefined): IssuedToken | string;
  /** Answers an App endpoint; false for a path that is not one. */
  handle(
    method: string,
    url: URL,
    body: string,
    authorization: string | undefined,
    send: Send,
  ): boolean;
}

export function createFakeApp(options: FakeAppOptions): FakeApp {
  const publicKey = createPublicKey(options.publicKey);
  const lifetime = options.tokenLifetimeMs ?? 60 * 60_000;
  // Real time, plus however far a test moved it on.
  let offset = 0;
  const clock = (): number => Date.now() + offset;
  const issued = new Map<string, IssuedToken>();
  const exchanges: FakeExchange[] = [];
  const redeliveries: number[] = [];
  let failures: { status: number; message: string; count: number } | undefined;
  let hookDeliveries: FakeHookDelivery[] = [];
  let hookConfig = options.hookConfig ?? { url: '', content_type: 'json', insecure_ssl: '0' };
  const manifests: FakeManifestPost[] = [];
  // A conversion's code is good once, as the forge's is.
  let converted = false;

  /** Why a `Bearer` JWT is refused, or `undefined` when it is the App's and live. */
  const jwtProblem = (authorization: string | undefined): string | undefined => {
    const jwt = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!jwt) return 'A JSON web token could not be decoded';
    const [head = '', claims = '', signature = ''] = jwt.split('.');
    const decode = (part: string): unknown =>
      JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    try {
      jwtHeader.parse(decode(head));
      const valid = verify(
        'RSA-SHA256',
        Buffer.from(`${head}.${claims}`),
        publicKey,
        Buffer.from(signature, 'base64url'),
      );
      if (!valid) return 'A JSON web token could not be decoded';
      const { iat, exp, iss } = jwtClaims.parse(decode(claims));
      const seconds = clock() / 1000;
      if (String(iss) !== String(options.id)) return "'Issuer' claim ('iss') must be the App's ID";
      if (iat > seconds + 60)
        return "'Issued at' claim ('iat') must be an Integer representing a time in the past.";
      if (exp < seconds)
        return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires.";
      if (exp - iat > 600) return "'Expiration time' claim ('exp') is too far in the future";
    } catch {
      return 'A JSON web token could not be decoded';
    }
    return undefined;
  };

  const exchange = (installationId: number, body: string, send: Send): void => {
    const asked = exchangeSchema.parse(body === '' ? {} : JSON.parse(body));
    const record = (status: number): void => {
      exchanges.push({
        installationId,
        repositories: asked.repositories ?? [],
        permissions: asked.permissions ?? {},
        status,
      });
    };
    if (failures && failures.count > 0) {
      failures.count--;
      record(failures.status);
      return send(failures.status, { message: failures.message });
    }
    const installation = options.installations.find((i) => i.id === installationId);
    if (!installation) {
      record(404);
      return send(404, { message: 'Not Found' });
    }
    const names = installation.repositories.map((full) => full.split('/')[1] ?? '');
    const outside = (asked.repositories ?? []).filter((name) => !names.includes(name));
    if (outside.length > 0) {
      record(422);
      return send(422, {
        message:
          'There is at least one repository that does not exist or is not accessible to the parent installation.',
      });
    }
    record(201);
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    const expiresAt = clock() + lifetime;
    const repositories = asked.repositories
      ? installation.repositories.filter((full) =>
          asked.repositories?.includes(full.split('/')[1] ?? ''),
        )
      : installation.repositories;
    issued.set(token, {
      installationId,
      repositories,
      permissions: asked.permissions ?? {},
      expiresAt,
    });
    send(201, {
      token,
      expires_at: new Date(expiresAt).toISOString(),
      permissions: asked.permissions ?? {},
      repository_selection: 'selected',
    });
  };

  const jwts: string[] = [];

  /** The issued token's grant when `authorization` (`token …`) is live, else why not. */
  const grantOf = (authorization: string | undefined): IssuedToken | string => {
    const token = /^token (ghs_\w+)$/.exec(authorization ?? '')?.[1];
    const found = token === undefined ? undefined : issued.get(token);
    if (!found) return 'Bad credentials';
    if (found.expiresAt <= clock()) return 'Bad credentials (the token expired)';
    return found;
  };

  /**
   * The browser's form POST of a manifest: checked, recorded, and answered with the redirect the
   * forge sends once the App is made (the forge asks for its name first; the fake takes the
   * manifest's).
   */
  const answerManifestForm = (
    org: string | undefined,
    url: URL,
    body: string,
    send: Send,
  ): void => {
    const form = new URLSearchParams(body);
    let parsed;
    try {
      parsed = manifestSchema.safeParse(JSON.parse(form.get('manifest') ?? ''));
    } catch {
      return send(422, { message: 'the manifest is not JSON' });
    }
    if (!parsed.success) return send(422, { message: `invalid manifest: ${parsed.error.message}` });
    const state = url.searchParams.get('state');
    manifests.push({ manifest: parsed.data, org, state });
    const redirect = parsed.data.redirect_url;
    if (!redirect || !options.conversion) return send(201, { message: 'App made; no redirect' });
    const location = new URL(redirect);
    location.searchParams.set('code', options.conversion.code);
    if (state !== null) location.searchParams.set('state', state);
    send(302, {}, { location: location.toString() });
  };

  /** `GET /installation/repositories` with an installation token: what it may reach. */
  const installationRepositories = (
    path: string,
    url: URL,
    authorization: string | undefined,
    send: Send,
  ): void => {
    if (path !== '/installation/repositories') return send(404, { message: 'Not Found' });
    const found = grantOf(authorization);
    if (typeof found === 'string') return send(401, { message: found });
    const perPage = Number(url.searchParams.get('per_page') ?? '30');
    send(200, {
      total_count: found.repositories.length,
      repository_selection:
        options.installations.find((i) => i.id === found.installationId)?.repositorySelection ??
        'selected',
      repositories: found.repositories
        .slice(0, perPage)
        .map((full) => ({ full_name: full, name: full.split('/')[1] ?? '' })),
    });
  };

  return {
    slug: options.slug,
    exchanges,
    tokenUses: [],
    jwts,
    issuedTokens: () => [...issued.keys()],
    redeliveries,
    manifests,
    now: clock,
    advance(ms) {
      offset += ms;
    },
    failExchanges(status, message, count = 1) {
      failures = { status, message, count };
    },
    setHookDeliveries(deliveries) {
      hookDeliveries = deliveries;
    },
    setHookConfig(config) {
      hookConfig = config;
    },
    grant: grantOf,
    handle(method, url, body, authorization, send) {
      const newApp = NEW_APP_PATH.exec(url.pathname);
      if (newApp && method === 'POST') {
        answerManifestForm(newApp[1], url, body, send);
        return true;
      }
      const path = url.pathname.replace(/^\/api\/v3/, '');
      const conversion = /^\/app-manifests\/([^/]+)\/conversions$/.exec(path);
      if (conversion && method === 'POST') {
        const answer = options.conversion;
        if (!answer || answer.code !== conversion[1] || converted) {
          send(404, { message: 'Not Found' });
          return true;
        }
        converted = true;
        const manifest: Partial<FakeManifest> = manifests.at(-1)?.manifest ?? {};
        hookConfig = {
          url: manifest.hook_attributes?.url ?? '',
          content_type: 'json',
          insecure_ssl: '0',
        };
        send(201, {
          id: options.id,
          slug: options.slug,
          name: manifest.name ?? options.slug,
          html_url: `https://${url.host}/apps/${options.slug}`,
          owner: { login: options.installations[0]?.account ?? 'octo' },
          pem: answer.pem,
          webhook_secret: answer.webhook_secret,
          client_id: 'Iv1.fake',
          client_secret: 'fake-client-secret',
        });
        return true;
      }
      if (path.startsWith('/installation/') && method === 'GET') {
        installationRepositories(path, url, authorization, send);
        return true;
      }
      if (!path.startsWith('/app')) return false;
      const jwt = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
      if (jwt) jwts.push(jwt);
      const refused = jwtProblem(authorization);
      if (refused) {
        send(401, { message: refused });
        return true;
      }
      const tokens = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
      const attempts = /^\/app\/hook\/deliveries\/(\d+)\/attempts$/.exec(path);
      if (tokens && method === 'POST') exchange(Number(tokens[1]), body, send);
      else if (path === '/app' && method === 'GET') {
        send(200, {
          id: options.id,
          slug: options.slug,
          name: options.slug,
          owner: { login: 'octo' },
        });
      } else if (path === '/app/installations' && method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? '30');
        const page = Number(url.searchParams.get('page') ?? '1');
        send(
          200,
          options.installations.slice((page - 1) * perPage, page * perPage).map((i) => ({
            id: i.id,
            account: { login: i.account, type: i.accountType ?? 'Organization' },
            repository_selection: i.repositorySelection ?? 'selected',
            target_type: i.accountType ?? 'Organization',
            app_id: options.id,
            suspended_at: null,
          })),
        );
      } else if (path === '/app/hook/config' && method === 'GET') send(200, hookConfig);
      else if (path === '/app/hook/deliveries' && method === 'GET') send(200, hookDeliveries);
      else if (attempts && method === 'POST') {
        redeliveries.push(Number(attempts[1]));
        send(202, {});
      } else send(404, { message: 'Not Found' });
      return true;
    },
  };
}
