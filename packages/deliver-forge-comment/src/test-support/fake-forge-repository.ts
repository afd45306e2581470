/**
 * The fake forge's repository endpoints, served from a real git repository (`git-repository.ts`)
 * and honouring the media types as the forge does: a pull request as JSON or as a diff
 * (`application/vnd.github.diff`; refused with 406 when the test says it is too large), its files
 * (paginated, each with its `patch`), a compare as a diff or JSON, and a file's contents at a ref
 * as raw text (`application/vnd.github.raw`) or JSON (base64).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { changedFiles, diffBetween, fileAt, hasCommit } from '@webhook-gateway/target-kit/testing';

/** A pull request of a repository the fake serves. */
export interface FakePull {
  number: number;
  base: string;
  head: string;
  title?: string;
  draft?: boolean;
  labels?: string[];
  author?: string;
  /** The forge refuses its diff as too large (406), as it does past 300 files or 20,000 lines. */
  refuseDiff?: boolean;
  /** Its files endpoint fails (500), as an overloaded forge does. */
  failFiles?: boolean;
  /** Its diff comes this late (a forge slow to make a large diff). */
  diffDelayMs?: number;
}

/** One page of a list, and the headers that point to the next. */
type Pager = <T>(
  req: IncomingMessage,
  url: URL,
  items: T[],
) => {
  slice: T[];
  headers: Record<string, string>;
};

const TOO_LARGE = {
  message:
    "Sorry, the diff exceeded the maximum number of files (300). Consider using 'List pull requests files' API or locally cloning the repository instead.",
  errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }],
  documentation_url: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
};

interface FakeRepositories {
  /** Serves `owner/repo` from the git repository in `dir`. */
  setRepository(repo: string, dir: string): void;
  setPull(repo: string, pull: FakePull): void;
  /** Answers the request when it is one of these endpoints of a repository set here. */
  handle(req: IncomingMessage, url: URL, res: ServerResponse, pager: Pager): boolean;
}

/** A compare's files as the files endpoints list them. */
function listingOf(dir: string, from: string, to: string) {
  return changedFiles(dir, from, to).map((file) => ({
    filename: file.path,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    ...(file.patch === undefined ? {} : { patch: file.patch }),
  }));
}

export function createFakeRepositories(): FakeRepositories {
  const dirs = new Map<string, string>();
  const pulls = new Map<string, FakePull>();
  /** Each answers the request and returns true: it was handled. */
  const json = (res: ServerResponse, status: number, value: unknown, headers = {}): true => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(value));
    return true;
  };
  const text = (res: ServerResponse, type: string, body: string): true => {
    res.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
    res.end(body);
    return true;
  };
  // Commits never change: each listing is made once (git runs per file), not once per page.
  const listings = new Map<string, ReturnType<typeof listingOf>>();
  const listing = (dir: string, from: string, to: string) => {
    const key = `${dir}|${from}...${to}`;
    let found = listings.get(key);
    if (!found) listings.set(key, (found = listingOf(dir, from, to)));
    return found;
  };

  return {
    setRepository(repo, dir) {
      dirs.set(repo, dir);
    },
    setPull(repo, pull) {
      pulls.set(`${repo}#${pull.number}`, pull);
    },
    handle(req, url, res, pager) {
      const match = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\/(.+)$/.exec(url.pathname);
      const dir = match ? dirs.get(match[1] ?? '') : undefined;
      if (!match || dir === undefined || req.method !== 'GET') return false;
      const repo = match[1] ?? '';
      const rest = decodeURIComponent(match[2] ?? '');
      const accept = req.headers.accept ?? '';
      const pullMatch = /^pulls\/(\d+)(\/files)?$/.exec(rest);
      if (pullMatch) {
        const pull = pulls.get(`${repo}#${pullMatch[1] ?? ''}`);
        if (!pull) return json(res, 404, { message: 'Not Found' });
        if (pullMatch[2]) {
          if (pull.failFiles) return json(res, 500, { message: 'Server Error' });
          const { slice, headers } = pager(req, url, listing(dir, pull.base, pull.head));
          return json(res, 200, slice, headers);
        }
        if (accept.includes('application/vnd.github.diff')) {
          if (pull.refuseDiff) return json(res, 406, TOO_LARGE);
          if (pull.diffDelayMs !== undefined) {
            const diff = diffBetween(dir, pull.base, pull.head);
            setTimeout(
              () => text(res, 'application/vnd.github.diff', diff),
              pull.diffDelayMs,
            ).unref();
            return true;
          }
          return text(res, 'application/vnd.github.diff', diffBetween(dir, pull.base, pull.head));
        }
        return json(res, 200, {
          number: pull.number,
          title: pull.title ?? 'A change',
          draft: pull.draft ?? false,
          user: { login: pull.author ?? 'octocat', type: 'User' },
          labels: (pull.labels ?? []).map((name) => ({ name })),
          base: { sha: pull.base, ref: 'main' },
          head: { sha: pull.head, ref: 'topic' },
        });
      }
      const compare = /^compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(rest);
      if (compare) {
        const [from = '', to = ''] = compare.slice(1);
        if (!hasCommit(dir, from) || !hasCommit(dir, to)) {
          return json(res, 404, { message: 'Not Found' });
        }
        if (accept.includes('application/vnd.github.diff')) {
          return text(res, 'application/vnd.github.diff', diffBetween(dir, from, to));
        }
        return json(res, 200, { status: 'ahead', files: listing(dir, from, to) });
      }
      const contents = /^contents\/(.+)$/.exec(rest);
      if (contents) {
        const ref = url.searchParams.get('ref') ?? 'main';
        const file = fileAt(dir, ref, contents[1] ?? '');
        if (file === undefined) return json(res, 404, { message: 'Not Found' });
        if (accept.includes('application/vnd.github.raw')) {
          return text(res, 'application/vnd.github.raw', file);
        }
        return json(res, 200, {
          type: 'file',
          path: contents[1],
          encoding: 'base64',
          content: Buffer.from(file).toString('base64'),
        });
      }
      return false;
    },
  };
}
