/**
 * Bitbucket's repository permissions by rank, and the rank each route `command_permission` needs:
 * Cloud's `read`/`write`/`admin` and Data Center's `REPO_READ`/`REPO_WRITE`/`REPO_ADMIN` alike.
 */

/** Bitbucket's repository permissions, by rank. */
export const BITBUCKET_RANK: Readonly<Record<string, number>> = {
  none: 0,
  read: 1,
  write: 2,
  admin: 3,
};

/** The rank each `command_permission` needs: Bitbucket has no `maintain`, so admin is the next up. */
export const NEEDED_RANK = { write: 2, maintain: 3, admin: 3 } as const;

/** The ranks as `rankVerdict` reads them: the name of each (what a refusal says), and those needed. */
export const RANKS = {
  names: Object.fromEntries(
    Object.entries(BITBUCKET_RANK).map(([name, rank]) => [rank, name]),
  ) as Record<number, string>,
  needed: NEEDED_RANK,
};
