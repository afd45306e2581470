/**
 * The page server of `app create`, on 127.0.0.1 and a free port: `GET /` serves the one-button
 * page, `GET /callback` takes the forge's redirect. A redirect is taken only with the `state`
 * this run made (anything else may be forged: another page could send the browser here with a
 * code for an App its author owns), and only once; requests naming another host are refused
 * (DNS rebinding).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { problemPage } from './manifest-page.js';

const CALLBACK_PATH = '/callback';

export interface ManifestServerOptions {
  /** The page, given the URL the forge's redirect must go to. */
  page(redirectUrl: string): string;
  /** The value the redirect must carry back in `state`. */
  state: string;
  /** The forge's web address: the only place the page's form may post to. */
  formTarget: string;
  /** Told about each refused redirect (printed, so the operator sees a forgery). */
  onRefused(why: string): void;
}

export interface ManifestServer {
  /** The page, `http://127.0.0.1:<port>/`. */
  url: string;
  /** `http://127.0.0.1:<port>/callback`: the manifest's `redirect_url`. */
  redirectUrl: string;
  /** The code of the first redirect that carried the right state. */
  code: Promise<string>;
  /** Answers that redirect with `html`, then stops the server. */
  finish(status: number, html: string): Promise<void>;
  /** Stops the server without answering (Ctrl-C). */
  close(): Promise<void>;
}

const HTML_HEADERS = (formTarget: string) => ({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // The form may post to the forge only (and the forge's redirect lands back here).
  'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${new URL(formTarget).origin} 'self'; frame-ancestors 'none'`,
});

export async function startManifestServer(options: ManifestServerOptions): Promise<ManifestServer> {
  let resolveCode: (code: string) => void = () => undefined;
  const code = new Promise<string>((resolve) => (resolveCode = resolve));
  let pending: http.ServerResponse | undefined;
  let taken = false;
  let url = '';
  let redirectUrl = '';
  let host = '';

  const send = (res: http.ServerResponse, status: number, html: string) => {
    res.writeHead(status, HTML_HEADERS(options.formTarget)).end(html);
  };

  const server = http.createServer((req, res) => {
    const request = new URL(req.url ?? '/', url);
    if (req.headers.host !== host) {
      return send(res, 421, problemPage('Refused', `This page answers only at ${url}`));
    }
    if (req.method !== 'GET') {
      res.setHeader('allow', 'GET');
      return send(res, 405, problemPage('Refused', 'Only GET is answered here.'));
    }
    if (request.pathname === '/') return send(res, 200, options.page(redirectUrl));
    if (request.pathname !== CALLBACK_PATH) {
      return send(res, 404, problemPage('Not found', 'Nothing is here.'));
    }
    const state = request.searchParams.get('state');
    const given = request.searchParams.get('code');
    if (state !== options.state) {
      const why = `a redirect to ${CALLBACK_PATH} ${state === null ? 'without a state' : 'with a state this run did not make'}: refused (it did not come from this page's form)`;
      options.onRefused(why);
      return send(res, 400, problemPage('Refused', `This redirect was refused: ${why}.`));
    }
    if (given === null || given === '') {
      options.onRefused(`a redirect to ${CALLBACK_PATH} without a code: refused`);
      return send(res, 400, problemPage('Refused', 'The redirect carries no code.'));
    }
    if (taken) {
      return send(res, 409, problemPage('Already done', 'This App has already been saved.'));
    }
    taken = true;
    pending = res;
    resolveCode(given);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  url = `http://${host}/`;
  redirectUrl = `http://${host}${CALLBACK_PATH}`;

  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url,
    redirectUrl,
    code,
    async finish(status, html) {
      const res = pending;
      if (res)
        await new Promise<void>((resolve) =>
          res.writeHead(status, HTML_HEADERS(options.formTarget)).end(html, resolve),
        );
      await close();
    },
    close,
  };
}
