/**
 * A GitHub-API-compatible fake over TLS on 127.0.0.1, for the real `gh`: `GET /api/v3/user` and
 * `GET /api/v3/repos/{o}/{r}/collaborators/{login}/permission`, as GitHub Enterprise serves them
 * (gh calls `https://<GH_HOST>/api/v3/…` for a host other than github.com). The certificate is
 * self-signed for 127.0.0.1, made with the real `openssl` (target-kit's `loopbackCertificate`);
 * gh (Go) trusts it via `SSL_CERT_FILE`.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from '@webhook-gateway/target-kit/testing';

export interface FakeForgeApi {
  /** `127.0.0.1:<port>`: what `platforms.forge.host` (GH_HOST) names. */
  host: string;
  /** The PEM file gh must trust: set `SSL_CERT_FILE` to it. */
  certFile: string;
  /** Each request's method and path, and whether it carried the expected token. */
  requests(): { method: string; path: string; authorized: boolean }[];
  /** Answers 502 to everything while true: the forge is down. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export interface FakeForgeApiOptions {
  /** The gateway's own account (`GET /user`). */
  login: string;
  /** `role_name` per collaborator; a login not listed is not a collaborator (`read`, as GitHub answers for public repos). */
  roles: Record<string, 'read' | 'triage' | 'write' | 'maintain' | 'admin'>;
  /** The token gh must send. */
  token: string;
}

/** The legacy `permission` field GitHub sends next to `role_name`. */
const LEGACY_PERMISSION = {
  read: 'read',
  triage: 'read',
  write: 'write',
  maintain: 'write',
  admin: 'admin',
};

export async function startFakeForgeApi(options: FakeForgeApiOptions): Promise<FakeForgeApi> {
  const certificate = loopbackCertificate();
  const seen: { method: string; path: string; authorized: boolean }[] = [];
  let down = false;
  const server = https.createServer(
    { key: certificate.key, cert: certificate.cert },
    (request, response) => {
      const url = new URL(request.url ?? '/', 'https://127.0.0.1');
      const authorized = request.headers.authorization === `token ${options.token}`;
      seen.push({ method: request.method ?? '', path: url.pathname, authorized });
      const answer = (status: number, body: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(body));
      };
      if (down) return answer(502, { message: 'Server Error' });
      if (!authorized) return answer(401, { message: 'Bad credentials' });
      if (url.pathname === '/api/v3/user') {
        return answer(200, { login: options.login, id: 1, type: 'User' });
      }
      const permission =
        /^\/api\/v3\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(url.pathname);
      if (permission) {
        const login = decodeURIComponent(permission[1] ?? '');
        const role = options.roles[login] ?? 'read';
        return answer(200, {
          permission: LEGACY_PERMISSION[role],
          role_name: role,
          user: { login, type: 'User' },
        });
      }
      answer(404, { message: 'Not Found' });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    certFile: certificate.certFile,
    requests: () => [...seen],
    setDown: (value) => {
      down = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      certificate.remove();
    },
  };
}
