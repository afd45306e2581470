/**
 * Files of a base commit (the repository's rules file, `.gitattributes`, guidance files), kept in
 * memory per repository, commit and path: a commit never changes, so every push of a pull request
 * reviewed against the same base reads them once. Bounded in entries and bytes; reads of the same
 * file at once share one call.
 */
import { LRUCache } from 'lru-cache';

/** What a read found: the text, or that the file does not exist at that commit. */
interface Found {
  text: string | undefined;
}

/** How a missing entry is read. */
type Reader = () => Promise<string | undefined>;

const MAX_ENTRIES = 1_000;
const MAX_BYTES = 16 * 1024 * 1024;

export class BaseFiles {
  private readonly cache = new LRUCache<string, Found, Reader>({
    max: MAX_ENTRIES,
    maxSize: MAX_BYTES,
    // A file larger than the whole cache is read, never kept.
    maxEntrySize: MAX_BYTES / 4,
    sizeCalculation: (found) => (found.text?.length ?? 0) + 64,
    fetchMethod: async (_key, _stale, { context }) => ({ text: await context() }),
  });

  /**
   * The file `path` at `sha` of the repository `repositoryKey` names (`forge|host|owner/repo`),
   * read with `read` when it is not kept yet. A failed read is not kept.
   */
  async get(
    repositoryKey: string,
    sha: string,
    path: string,
    read: Reader,
  ): Promise<string | undefined> {
    const found = await this.cache.fetch(`${repositoryKey}|${sha}|${path}`, { context: read });
    return found?.text;
  }
}
