/**
 * The listings beside an engine search (ripgrep) that count what the search
 * does not say: every file it could see, whatever its size (the ones over the
 * size limit are counted as skipped), and, when the search cannot say how
 * many files it searched, the files under the size limit. They are reused for
 * a few seconds: they only count files, and an agent searches often.
 */
import type { Clock } from '../../base/common';
import type { TextQuery, WorkspaceSearch } from './searchPorts';
import { engineFiles, type PathVerdicts } from './searchPathChecks';

/** How long the listings are reused. */
export const listingReuseMs = 10_000;

export interface Listed {
  files: string[];
  stopped?: string;
}

interface Recent {
  key: string;
  at: number;
  all?: Listed;
  small?: Listed;
}

const recentListings = new WeakMap<WorkspaceSearch, Recent>();

export class SearchListings {
  private readonly controller = new AbortController();
  private readonly key: string;
  private readonly at: number;
  private allListing: Promise<Listed> | undefined;
  private smallListing: Promise<Listed> | undefined;

  constructor(
    private readonly search: WorkspaceSearch,
    private readonly query: TextQuery,
    private readonly verdicts: PathVerdicts,
    /** What else decides which files are listed (the glob): part of the key under which they are reused. */
    listingKey: string,
    private readonly clock: Clock,
    signal: AbortSignal,
  ) {
    const { pattern: _pattern, regex: _regex, ignoreCase: _ignoreCase, maxMatchesPerFile: _perFile, ...listed } = query;
    this.key = JSON.stringify([listed, listingKey]);
    this.at = clock.now();
    const stop = () => this.controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    this.controller.signal.addEventListener('abort', () => signal.removeEventListener('abort', stop), { once: true });
  }

  /** Every file the search could see, whatever its size (started at the first call, or reused). */
  all(): Promise<Listed> {
    const { maxFileBytes: _size, ...anySize } = this.query;
    return (this.allListing ??= this.list('all', anySize));
  }

  /** The files of at most the size limit: the ones the search reads. */
  small(): Promise<Listed> {
    return (this.smallListing ??= this.list('small', this.query));
  }

  /** Stops the listings under way (the search passed its limit: they are not needed). */
  stop(): void {
    this.controller.abort();
  }

  /** Whether they were stopped: then they are to be started again, with a new SearchListings, if needed after all. */
  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  private list(which: 'all' | 'small', query: TextQuery | Omit<TextQuery, 'maxFileBytes'>): Promise<Listed> {
    const recent = recentListings.get(this.search);
    const reused = recent?.key === this.key && this.clock.now() - recent.at < listingReuseMs ? recent[which] : undefined;
    if (reused) return Promise.resolve(reused);
    const listing = engineFiles(this.search, query, this.verdicts, this.controller.signal);
    listing
      .then((listed) => {
        const current = recentListings.get(this.search);
        // Kept beside the other listing while that one is reused; another key, or an old pair, is replaced.
        if (current?.key === this.key && this.clock.now() - current.at < listingReuseMs) current[which] = listed;
        else recentListings.set(this.search, { key: this.key, at: this.at, [which]: listed });
      })
      .catch(() => undefined);
    return listing;
  }
}
