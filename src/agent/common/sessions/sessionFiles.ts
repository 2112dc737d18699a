/**
 * Reads the saved session files of a folder, through a small file-system port
 * so it can be tested without VS Code. Two things it guarantees:
 * - a damaged or foreign file is skipped (and logged once per version), never
 *   thrown: one bad file must not break the Sessions view, the pickers or recovery;
 * - listing does not re-read unchanged files. The Sessions view lists on every
 *   save, and sessions grow to hundreds of kilobytes: parsing all of them each
 *   time cost ~200 ms per list with 300 sessions. A file is re-read only when its
 *   modification time or size changed, or when this store saved it.
 * A file that is not there is no session; a file that cannot be read (permissions,
 * a failing disk) is an error: logged, and for a session the user asked for by
 * name, a SessionReadError rather than "no such session".
 */
import { parseSavedSession } from '../../../sessionModel/common';
import { journalName, replayJournal } from '../../../sessionModel/common';
import type { AgentSessionState } from '../../../sessionModel/common';
import type { Logger } from '../../../base/common';

/** Rejects only for a real failure: what is not there comes back as [] or undefined. */
export interface SessionFileSystem {
  /** The names of the files in the sessions folder; [] when there is no folder yet. */
  names(): Promise<string[]>;
  /** undefined when the file is not there. */
  stat(name: string): Promise<{ mtime: number; size: number } | undefined>;
  /** undefined when the file is not there. */
  read(name: string): Promise<string | undefined>;
}

/** A saved session, or the sessions folder, exists but could not be read. */
export class SessionReadError extends Error {
  constructor(what: string, cause: unknown) {
    super(`Could not read ${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SessionReadError';
  }
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
    private readonly logger?: Pick<Logger, 'warn' | 'error'>,
  ) {}

  /** A fresh copy of one session, read from its file (callers change and save it); undefined when there is none. */
  async load(id: string): Promise<AgentSessionState | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.fs.read(`${id}${SUFFIX}`);
    } catch (error) {
      throw this.readFailure(`agent session file ${id}${SUFFIX}`, error);
    }
    if (raw === undefined) return undefined;
    const state = this.parse(raw, await this.readJournal(`${id}${SUFFIX}`));
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
    } catch (error) {
      throw this.readFailure('the agent sessions folder', error);
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
  private parse(raw: string, journal: string | undefined): AgentSessionState | undefined {
    try {
      return parseSavedSession(replayJournal(raw, journal));
    } catch {
      return undefined;
    }
  }

  /** A snapshot's journal; undefined when it has none. A journal that cannot be read is a SessionReadError. */
  private async readJournal(snapshot: string): Promise<string | undefined> {
    try {
      return (await this.journalSize(snapshot)) > 0 ? await this.fs.read(journalOf(snapshot)) : undefined;
    } catch (error) {
      throw this.readFailure(`the journal of agent session file ${snapshot}`, error);
    }
  }

  /** The size of a snapshot's journal; 0 when it has none. */
  private async journalSize(snapshot: string): Promise<number> {
    return (await this.fs.stat(journalOf(snapshot)))?.size ?? 0;
  }

  private async cached(name: string): Promise<AgentSessionState | undefined> {
    try {
      const stat = await this.fs.stat(name);
      // Deleted or renamed between the listing and the read: not there any more.
      if (!stat) return this.forget(name);
      const { mtime, size } = stat;
      const journalSize = await this.journalSize(name);
      const hit = this.cache.get(name);
      if (hit && hit.mtime === mtime && hit.size === size && hit.journalSize === journalSize) return hit.state;
      const raw = await this.fs.read(name);
      if (raw === undefined) return this.forget(name);
      const state = this.parse(raw, journalSize > 0 ? await this.fs.read(journalOf(name)) : undefined);
      // A file whose name is not its id would be loaded (and saved) under another name.
      const usable = state && `${state.id}${SUFFIX}` === name ? state : undefined;
      if (!usable) this.logger?.warn(`agent session file ${name} is not a saved session; skipped`);
      this.cache.set(name, { mtime, size, journalSize, state: usable });
      return usable;
    } catch (error) {
      // One unreadable file must not hide the others: logged, and left out of the list.
      this.readFailure(`agent session file ${name}`, error);
      return this.forget(name);
    }
  }

  private forget(name: string): undefined {
    this.cache.delete(name);
    return undefined;
  }

  private readFailure(what: string, error: unknown): SessionReadError {
    const failure = new SessionReadError(what, error);
    this.logger?.error(failure.message);
    return failure;
  }
}

function journalOf(snapshot: string): string {
  return journalName(snapshot.slice(0, -SUFFIX.length));
}
