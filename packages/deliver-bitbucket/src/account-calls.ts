/**
 * The two Bitbucket Cloud calls about accounts, under `/2.0` with the token: who the token is
 * (`GET /user`) and a user's effective permission on a repository
 * (`GET /workspaces/{workspace}/permissions/repositories/{repo_slug}?q=user.uuid="…"`). Each waits
 * out 429s (target-kit's `callTokenRest`) and hands back what Bitbucket said, the token never in it.
 */
import type { Logger } from '@webhook-gateway/core';
import {
  bodyExcerpt,
  callTokenRest,
  redact,
  serverErrorReason,
  type HttpTargetOptions,
} from '@webhook-gateway/target-kit';
import { z } from 'zod';
import type { BitbucketConnection } from './settings.js';

const SERVICE = 'Bitbucket';

const userSchema = z.object({
  uuid: z.string().min(1),
  account_id: z.string().nullish(),
  nickname: z.string().nullish(),
});
const permissionsSchema = z.object({
  values: z.array(z.object({ permission: z.string() })),
});

/** A call Bitbucket refused or failed: its status, and a message without the token. */
export class AccountCallError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'AccountCallError';
    this.status = status;
  }
}

interface AccountCallContext {
  connection: BitbucketConnection;
  options: HttpTargetOptions;
  signal: AbortSignal;
  log: Logger;
  /** Who calls (`command permission`, `loop guard`), first in every error. */
  target: string;
}

async function getJson(context: AccountCallContext, path: string): Promise<unknown> {
  const { connection } = context;
  const answer = await callTokenRest(
    {
      service: SERVICE,
      target: context.target,
      options: context.options,
      signal: context.signal,
      log: context.log,
      authorization: `Bearer ${connection.token}`,
      token: connection.token,
    },
    'GET',
    `${connection.apiBase}${path}`,
  );
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  const reason =
    answer.status >= 500
      ? serverErrorReason(SERVICE, answer.status)
      : `Bitbucket answered HTTP ${answer.status}: ${bodyExcerpt(answer.body)}`;
  throw new AccountCallError(
    redact(`${context.target}: GET ${path.split('?')[0]} failed: ${reason}`, [connection.token]),
    answer.status,
  );
}

/**
 * Every name of the token's account: `uuid`, `account_id`, `nickname`. Bitbucket answers this
 * only for a user's token (an API token, an app password, OAuth): an access token's bot user is
 * refused (Atlassian's BCLOUD-23528), and this throws.
 */
export async function cloudTokenAccount(context: AccountCallContext): Promise<string[]> {
  const user = userSchema.parse(await getJson(context, '/user'));
  return [user.uuid, user.account_id, user.nickname].filter(
    (name): name is string => typeof name === 'string' && name !== '',
  );
}

/**
 * The effective permission (`read`, `write`, `admin`) of the user `uuid` on `workspace/repoSlug`,
 * `none` when Bitbucket lists none. Only a repository administrator may ask: else 403, thrown.
 */
export async function cloudRepositoryPermission(
  context: AccountCallContext,
  repo: { workspace: string; slug: string },
  uuid: string,
): Promise<string> {
  const query = encodeURIComponent(`user.uuid="${uuid.replace(/["\\]/g, '')}"`);
  const path = `/workspaces/${encodeURIComponent(repo.workspace)}/permissions/repositories/${encodeURIComponent(repo.slug)}?q=${query}`;
  const { values } = permissionsSchema.parse(await getJson(context, path));
  return values[0]?.permission ?? 'none';
}
