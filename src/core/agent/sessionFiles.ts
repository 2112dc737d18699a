/**
 * Reads the saved session files of a folder, through a small file-system port
 * so it can be tested without VS Code. Two things it guarantees:
 * - a damaged or foreign file is skipped (and logged once per version), never
 *   thrown: one bad file must not break the Sessions view, the pickers or recovery;
 * - listing does not re-read unchanged files. The Sessions view lists on every
 *   save, and sessions grow to hundreds of kilobytes: parsing all of them each
 *   time cost ~200 ms per list with 300 sessions. A file is re-read only when its
 *   modification time or size changed, or when this store saved it.
 */
import { parseSavedSession } from './savedSession';
import { journalName, replayJournal } from './sessionJournal';
import type { AgentSessionState } from './sessionState';
import type { Logger } from '../ports';

export interface SessionFileSystem {
  /** The names of the files in the sessions folder; [] when there is no folder yet. */
  names(): Promise<string[]>;
  stat(name: string): Promise<{ mtime: number; size: number }>;
  read(name: string): Promise<string>;
}

interface Cached {
  mtime: number;
  size: number;
  /** The journal's size: appends change it, not the snapshot's. */
  journalSize: number;
  /** Undefined: the file is not a session (already logged). */
  state: AgentSessionState | undefined;
}

const SUFFIX = '.json';

export class SessionFiles {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly fs: SessionFileSystem,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  /** A fresh copy of one session, read from its file (callers change and save it). */
  async load(id: string): Promise<AgentSessionState | undefined> {
    let raw: string;
    try {
      raw = await this.fs.read(`${id}${SUFFIX}`);
    } catch {
      return undefined;
    }
    const state = await this.parse(`${id}${SUFFIX}`, raw, await this.journalSize(`${id}${SUFFIX}`));
    if (state?.id === id) return state;
    this.logger?.warn(`agent session file ${id}${SUFFIX} is not a saved session; skipped`);
    return undefined;
  }

  /**
   * Every readable session, newest first. The objects are shared with the cache:
   * read them, but load() a session before changing it.
   */
  async list(): Promise<AgentSessionState[]> {
    let names: string[];
    try {
      names = (await this.fs.names()).filter((name) => name.endsWith(SUFFIX));
    } catch {
      return [];
    }
    for (const name of this.cache.keys()) if (!names.includes(name)) this.cache.delete(name);
    const sessions = await Promise.all(names.map((name) => this.cached(name)));
    return sessions.filter((s): s is AgentSessionState => s !== undefined).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Forgets a file's cached session: this store just wrote it, maybe within the same millisecond and size. */
  invalidate(id: string): void {
    this.cache.delete(`${id}${SUFFIX}`);
  }

  /** The snapshot with its journal's records applied (see sessionJournal.ts); undefined when it is not a session. */
  private async parse(name: string, raw: string, journalSize: number): Promise<AgentSessionState | undefined> {
    const journal = journalSize > 0 ? await this.fs.read(journalOf(name)).catch(() => undefined) : undefined;
    try {
      return parseSavedSession(replayJournal(raw, journal));
    } catch {
      return undefined;
    }
  }

  /** The size of a snapshot's journal; 0 when it has none. */
  private journalSize(snapshot: string): Promise<number> {
    return this.fs.stat(journalOf(snapshot)).then(
      (stat) => stat.size,
      () => 0,
    );
  }

  private async cached(name: string): Promise<AgentSessionState | undefined> {
    try {
      const { mtime, size } = await this.fs.stat(name);
      const journalSize = await this.journalSize(name);
      const hit = this.cache.get(name);
      if (hit && hit.mtime === mtime && hit.size === size && hit.journalSize === journalSize) return hit.state;
      const state = await this.parse(name, await this.fs.read(name), journalSize);
      // A file whose name is not its id would be loaded (and saved) under another name.
      const usable = state && `${state.id}${SUFFIX}` === name ? state : undefined;
      if (!usable) this.logger?.warn(`agent session file ${name} is not a saved session; skipped`);
      this.cache.set(name, { mtime, size, journalSize, state: usable });
      return usable;
    } catch {
      // Deleted or renamed between the listing and the read: not there any more.
      this.cache.delete(name);
      return undefined;
    }
  }
}

function journalOf(snapshot: string): string {
  return journalName(snapshot.slice(0, -SUFFIX.length));
}
