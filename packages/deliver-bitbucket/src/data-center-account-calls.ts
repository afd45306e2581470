/**
 * The two Bitbucket Data Center calls about accounts, under `/rest/api/1.0` with the token: who
 * the token is (the `X-AUSERNAME` header Data Center puts on every authenticated REST answer, read
 * off `GET /application-properties`: it has no endpoint for the current user) and whether a user
 * holds a repository permission (`GET /users` with a repository permission filter, which counts
 * group grants and the project and global permissions that imply it, and which any licensed user
 * may call: no repository admin needed).
 */
import { z } from 'zod';
import { askAccountApi, type AccountCallContext } from './account-calls.js';

const SERVICE = 'Bitbucket Data Center';

/** Pages of users followed at most while looking for one name among those the filter matched. */
const MAX_PAGES = 20;
const PAGE_LIMIT = 100;

const usersPageSchema = z.object({
  values: z.array(z.object({ name: z.string().nullish(), slug: z.string().nullish() }).loose()),
  isLastPage: z.boolean(),
  nextPageStart: z.number().nullish(),
});

/** Data Center's repository permissions, each implying those below it. */
export type DataCenterRepositoryPermission = 'REPO_READ' | 'REPO_WRITE' | 'REPO_ADMIN';

/**
 * The token's user `name`, from the `X-AUSERNAME` header; throws when Data Center names no one
 * (the header missing, or `anonymous`).
 */
export async function dataCenterTokenAccount(context: AccountCallContext): Promise<string[]> {
  const answer = await askAccountApi({ ...context, service: SERVICE }, '/application-properties');
  const name = answer.headers.get('x-ausername')?.trim();
  if (!name || name === 'anonymous') {
    throw new Error(
      `${context.target}: Bitbucket Data Center named no user for the token (no X-AUSERNAME header)`,
    );
  }
  return [name];
}

/**
 * True when the user (`name`, or `slug`) holds `permission` on `PROJECT/repo_slug`, directly, by a
 * group, or by a project or global permission that implies it: Data Center lists the users whose
 * name, display name or email contains `filter` and who hold it, and the list is searched for the
 * exact name or slug.
 */
export async function dataCenterHasRepositoryPermission(
  context: AccountCallContext,
  repo: { project: string; slug: string },
  user: { name: string; slug?: string },
  permission: DataCenterRepositoryPermission,
): Promise<boolean> {
  const query = new URLSearchParams({
    filter: user.name,
    'permission.1': permission,
    'permission.1.projectKey': repo.project,
    'permission.1.repositorySlug': repo.slug,
    limit: String(PAGE_LIMIT),
  });
  let start: number | undefined = 0;
  for (let page = 0; start !== undefined && page < MAX_PAGES; page++) {
    query.set('start', String(start));
    const answer = await askAccountApi(
      { ...context, service: SERVICE },
      `/users?${query.toString()}`,
    );
    const { values, isLastPage, nextPageStart } = usersPageSchema.parse(answer.body);
    const found = values.some(
      (listed) =>
        listed.name === user.name || (user.slug !== undefined && listed.slug === user.slug),
    );
    if (found) return true;
    start = isLastPage || nextPageStart == null ? undefined : nextPageStart;
  }
  return false;
}
