/**
 * A GitHub-compatible API over TLS on 127.0.0.1 that serves the replayed pull requests from this
 * repository's history: a pull request's diff (and its JSON), its files, a compare between two
 * commits, and a file's content at a commit. The real `gh` reaches it with GH_HOST, GH_TOKEN and
 * SSL_CERT_FILE naming the self-signed certificate made here with openssl. Each request is
 * counted by kind, so the scenario can say what each row fetched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { git } from './review-history.mjs';

export const OWNER = 'bench';
export const REPO = 'webhook-gateway';
const TOKEN = 'bench-forge-token';

/** @param {string} dir */
function selfSignedCertificate(dir) {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile };
}

/** git's outputs, kept: every row reads the same diffs. */
const memo = new Map();
/** @param {string[]} args */
function cachedGit(args) {
  const key = args.join('\0');
  if (!memo.has(key)) memo.set(key, git(args));
  return memo.get(key);
}

/** The files of a diff as GitHub's files endpoint lists them (a `patch` per text file). */
function filesOf(base, head) {
  const numstat = cachedGit(['diff', '--numstat', base, head]).trim().split('\n').filter(Boolean);
  return numstat.map((line) => {
    const [added, deleted, file] = line.split('\t');
    const binary = added === '-';
    const patch = binary
      ? undefined
      : cachedGit(['diff', base, head, '--', file ?? ''])
          .split('\n')
          .slice(4)
          .join('\n');
    return {
      filename: file,
      status: 'modified',
      additions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      changes: binary ? 0 : Number(added) + Number(deleted),
      ...(patch === undefined ? {} : { patch }),
    };
  });
}

/**
 * @param {{ pulls: import('./review-history.mjs').ReplayedPull[] }} options
 */
export async function startReviewForge(options) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-forge-'));
  const { keyFile, certFile } = selfSignedCertificate(dir);
  /** The head each pull request is at now: the scenario moves it as it pushes. */
  const heads = new Map(options.pulls.map((pull) => [pull.number, pull.pushes[0]]));
  const byNumber = new Map(options.pulls.map((pull) => [pull.number, pull]));
  /** @type {Record<string, number>} */
  const requests = {};
  const count = (/** @type {string} */ kind) => (requests[kind] = (requests[kind] ?? 0) + 1);

  const server = https.createServer(
    { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) },
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const accept = String(req.headers.accept ?? '');
      const send = (/** @type {number} */ status, /** @type {unknown} */ body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const text = (/** @type {string} */ body) => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(body);
      };
      if (req.headers.authorization !== `token ${TOKEN}`) {
        send(401, { message: 'Bad credentials' });
        return;
      }
      const prefix = `/api/v3/repos/${OWNER}/${REPO}`;
      const route = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : '';
      let match;
      if ((match = /^\/pulls\/(\d+)$/.exec(route))) {
        const pull = byNumber.get(Number(match[1]));
        const head = heads.get(Number(match[1]));
        if (!pull || !head) return send(404, { message: 'Not Found' });
        if (accept.includes('diff')) {
          count('pull diff');
          return text(cachedGit(['diff', pull.base, head]));
        }
        count('pull');
        return send(200, {
          number: pull.number,
          title: pull.title,
          state: 'open',
          draft: false,
          labels: [],
          user: { login: 'octocat' },
          head: { sha: head, ref: `pull-${pull.number}` },
          base: { sha: pull.base, ref: 'main' },
        });
      }
      if ((match = /^\/pulls\/(\d+)\/files$/.exec(route))) {
        const pull = byNumber.get(Number(match[1]));
        const head = heads.get(Number(match[1]));
        if (!pull || !head) return send(404, { message: 'Not Found' });
        count('pull files');
        const page = Number(url.searchParams.get('page') ?? '1');
        const perPage = Number(url.searchParams.get('per_page') ?? '30');
        const files = filesOf(pull.base, head);
        const last = Math.max(1, Math.ceil(files.length / perPage));
        if (page < last) {
          const next = new URL(url.href);
          next.searchParams.set('page', String(page + 1));
          res.setHeader(
            'link',
            `<https://${req.headers.host}${next.pathname}${next.search}>; rel="next"`,
          );
        }
        return send(200, files.slice((page - 1) * perPage, page * perPage));
      }
      if ((match = /^\/compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(route))) {
        count('compare');
        if (accept.includes('diff'))
          return text(cachedGit(['diff', match[1] ?? '', match[2] ?? '']));
        return send(200, { files: filesOf(match[1], match[2]) });
      }
      if ((match = /^\/contents\/(.+)$/.exec(route))) {
        count('contents');
        const ref = url.searchParams.get('ref') ?? 'HEAD';
        let content;
        try {
          content = git(['show', `${ref}:${decodeURIComponent(match[1] ?? '')}`]);
        } catch {
          return send(404, { message: 'Not Found' });
        }
        if (accept.includes('raw')) return text(content);
        return send(200, {
          type: 'file',
          encoding: 'base64',
          content: Buffer.from(content).toString('base64'),
        });
      }
      count('other');
      send(404, { message: `Not Found: ${url.pathname}` });
    },
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    host: `127.0.0.1:${port}`,
    token: TOKEN,
    certFile,
    requests,
    /** Moves a pull request's head to a later push. */
    push: (/** @type {number} */ number, /** @type {string} */ sha) => heads.set(number, sha),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve(undefined);
        });
      }),
  };
}
