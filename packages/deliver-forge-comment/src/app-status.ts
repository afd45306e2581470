/**
 * What `webhook-gateway app status` shows, read from the forge as the App: its identity
 * (`GET /app`), its installations (`GET /app/installations`) with each one's repository count
 * (`GET /installation/repositories`, with a token that may only read metadata), and its webhook
 * (`GET /app/hook/config`).
 */
import { z } from 'zod';
import type { AppClient, AppIdentity } from './app-client.js';

const PAGE_SIZE = 100;

/** An installation as `GET /app/installations` lists it (the fields shown). */
const installationSchema = z.object({
  id: z.number(),
  // An enterprise's installation names its account by slug.
  account: z
    .object({
      login: z.string().optional(),
      slug: z.string().optional(),
      type: z.string().optional(),
    })
    .nullable(),
  repository_selection: z.enum(['all', 'selected']),
  target_type: z.string().optional(),
  suspended_at: z.string().nullable().optional(),
});

const repositoriesSchema = z.object({ total_count: z.number().int().nonnegative() });

/**
 * `GET /app/hook/config`. GitHub's answer has no `active` flag: a webhook with a URL is taken as
 * active unless the answer says `active: false`.
 */
const hookConfigSchema = z.object({
  url: z.string().optional(),
  content_type: z.string().optional(),
  insecure_ssl: z.union([z.string(), z.number()]).optional(),
  active: z.boolean().optional(),
});

export interface AppInstallationStatus {
  id: number;
  /** The account's login (an enterprise's slug). */
  account: string;
  /** `Organization`, `User`, `Enterprise`. */
  accountType: string | undefined;
  /** `all` or `selected`, as the installation was given. */
  repositorySelection: 'all' | 'selected';
  /** How many repositories it reaches, or why that could not be read. */
  repositories: { count: number } | { error: string };
  suspended: boolean;
}

export interface AppStatus {
  app: AppIdentity;
  installations: AppInstallationStatus[];
  webhook: { url: string; active: boolean; contentType: string | undefined };
}

/** Every page of `GET /app/installations`. */
async function listInstallations(client: AppClient) {
  const all: z.infer<typeof installationSchema>[] = [];
  for (let page = 1; ; page++) {
    const batch = await client.asApp(
      'GET',
      `/app/installations?per_page=${PAGE_SIZE}&page=${page}`,
      z.array(installationSchema),
    );
    all.push(...batch);
    if (batch.length < PAGE_SIZE) return all;
  }
}

/** The installation's repository count, through a token that may only read metadata. */
async function repositoryCount(
  client: AppClient,
  installationId: number,
): Promise<AppInstallationStatus['repositories']> {
  try {
    const { token } = await client.exchange(installationId, [], { metadata: 'read' });
    const answer = await client.asInstallation(
      token,
      'GET',
      '/installation/repositories?per_page=1',
      repositoriesSchema,
    );
    return { count: answer.total_count };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Reads the App's status; a failed read of the App, its installations or its hook throws. */
export async function readAppStatus(client: AppClient): Promise<AppStatus> {
  // The identity is read first so that a refused JWT fails on `GET /app`, whichever request
  // would have been answered first.
  const app = await client.identity();
  const [installations, hook] = await Promise.all([
    listInstallations(client),
    client.asApp('GET', '/app/hook/config', hookConfigSchema),
  ]);
  const url = hook.url ?? '';
  return {
    app,
    installations: await Promise.all(
      installations.map(async (installation) => ({
        id: installation.id,
        account: installation.account?.login ?? installation.account?.slug ?? '(unknown)',
        accountType: installation.account?.type ?? installation.target_type,
        repositorySelection: installation.repository_selection,
        repositories: await repositoryCount(client, installation.id),
        suspended: installation.suspended_at !== null && installation.suspended_at !== undefined,
      })),
    ),
    webhook: { url, active: url !== '' && hook.active !== false, contentType: hook.content_type },
  };
}
