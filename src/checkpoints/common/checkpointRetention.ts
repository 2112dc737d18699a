/**
 * Checkpoint folders across sessions: deleting a session with its checkpoints,
 * a total bound on every session's checkpoint folder in a workspace (each one is
 * already bounded on its own: 64 MB, 200 checkpoints), and removing the folders
 * whose session is gone. Without these, a daily user's storage only grows.
 *
 * Crash safety: a session's checkpoint folder is renamed out of the way (atomic)
 * before it is removed, so a session never points at half its checkpoints; and
 * a deleted session's saved file goes first (the commit point), so a crash
 * after it leaves an orphan folder that the next activation removes, never a
 * session without its checkpoints that the user did not ask to lose.
 */

import type { Clock } from '../../base/common';
import { type SessionStatus, journalName, snapshotName, type JournalFolder } from '../../sessionModel/common';

/** The folder holding every session's checkpoint folder (named by the session's id). */
export interface CheckpointShelf {
  /** The session folders there (not the retired ones), at most `maxFolders`, each measured over at most `maxEntries` files. */
  folders(bounds: { maxFolders: number; maxEntries: number }, signal: AbortSignal): Promise<ShelvedFolder[]>;
  /** Renames a session's folder out of the way in one step; false when it is not there. */
  retire(sessionId: string, signal: AbortSignal): Promise<boolean>;
  /** Removes retired folders (this run's or a crash's), at most `maxFolders` of them; how many went. */
  purgeRetired(maxFolders: number, signal: AbortSignal): Promise<number>;
}

export interface ShelvedFolder {
  sessionId: string;
  bytes: number;
  /** True when the folder had more files than measured: `bytes` is then a lower bound. */
  truncated: boolean;
}

/** What retention needs to know of a saved session. */
export interface SessionSummary {
  id: string;
  title: string;
  status: SessionStatus;
  /** When the session last changed: the least recently used go first. */
  updatedAt: number;
  /** Running now (in this window): its checkpoints are never dropped. */
  running: boolean;
}

/** Bounds of one pass over the shelf: a workspace with years of sessions must not stall activation. */
export const RETENTION_BOUNDS = { maxFolders: 2_000, maxEntries: 20_000, timeMs: 10_000 } as const;

/**
 * The sessions whose checkpoints go, in order, until the rest fit in `maxBytes`:
 * finished sessions first (done, stopped), least recently used first; then
 * sessions with work left (paused, waiting) only when nothing else remains;
 * a running session never. Folders without a session are not counted here:
 * they are orphans, removed whatever the total.
 */
export function retentionVictims(folders: readonly ShelvedFolder[], sessions: readonly SessionSummary[], maxBytes: number): SessionSummary[] {
  const { total, order } = retentionOrder(folders, sessions);
  let left = total;
  const victims: SessionSummary[] = [];
  for (const { session, bytes } of order) {
    if (left <= maxBytes) break;
    victims.push(session);
    left -= bytes;
  }
  return victims;
}

/** The bytes of every session's folder together, and the folders retention may drop in the order it drops them. */
function retentionOrder(
  folders: readonly ShelvedFolder[],
  sessions: readonly SessionSummary[],
): { total: number; order: { session: SessionSummary; bytes: number }[] } {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const owned = folders.flatMap((folder) => {
    const session = byId.get(folder.sessionId);
    return session ? [{ session, bytes: folder.bytes }] : [];
  });
  const tier = (session: SessionSummary) => (session.status === 'done' || session.status === 'stopped' ? 0 : 1);
  const order = owned
    .filter(({ session }) => !session.running)
    .sort((a, b) => tier(a.session) - tier(b.session) || a.session.updatedAt - b.session.updatedAt || a.session.id.localeCompare(b.session.id));
  return { total: owned.reduce((sum, { bytes }) => sum + bytes, 0), order };
}

export interface RetentionDeps {
  shelf: CheckpointShelf;
  clock: Clock;
  /** Claims a session so it cannot start while its checkpoints go; undefined when it is running. */
  claim(sessionId: string): (() => void) | undefined;
  /** Forgets what is cached of a session's checkpoints once its folder is gone. */
  forget(sessionId: string): void;
  /** Asked again under the claim before an orphan goes: a session saved after the list was taken keeps its folder. */
  sessionExists(sessionId: string, signal: AbortSignal): Promise<boolean>;
  bounds?: { maxFolders: number; maxEntries: number; timeMs: number };
}

export interface RetentionReport {
  /** Sessions whose checkpoints were dropped to stay under the bound. */
  dropped: SessionSummary[];
  /** Folders removed because their session no longer exists. */
  orphans: string[];
  /** Retired folders removed (left by this pass or by a crash). */
  purged: number;
  /** The pass stopped at its time bound before it was done. */
  outOfTime: boolean;
}

export class SessionDeletedPartly extends Error {
  constructor(
    readonly sessionId: string,
    cause: unknown,
  ) {
    super(`Agent session ${sessionId} was deleted, but its checkpoint folder could not be removed yet (${String(cause)}); it is removed at the next start.`);
    this.name = 'SessionDeletedPartly';
  }
}

export class CheckpointRetention {
  private readonly bounds: { maxFolders: number; maxEntries: number; timeMs: number };

  constructor(private readonly deps: RetentionDeps) {
    this.bounds = deps.bounds ?? RETENTION_BOUNDS;
  }

  /**
   * Deletes a saved session, then its checkpoint folder. The caller holds the
   * session's claim (it is not running). `removeSession` removing the saved file
   * is the commit point: a failure before it leaves the session whole.
   */
  async deleteSession(sessionId: string, removeSession: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
    await removeSession(signal);
    try {
      await this.deps.shelf.retire(sessionId, signal);
      this.deps.forget(sessionId);
      await this.deps.shelf.purgeRetired(this.bounds.maxFolders, signal);
    } catch (error) {
      throw new SessionDeletedPartly(sessionId, error);
    }
  }

  /** One pass: retired folders purged, orphans removed, then the least recently used checkpoints dropped until the total fits. */
  async enforce(sessions: readonly SessionSummary[], maxBytes: number, signal: AbortSignal): Promise<RetentionReport> {
    const deadline = this.deps.clock.now() + this.bounds.timeMs;
    const outOfTime = () => this.deps.clock.now() > deadline;
    const report: RetentionReport = { dropped: [], orphans: [], purged: 0, outOfTime: false };
    const folders = await this.deps.shelf.folders(this.bounds, signal);
    const known = new Set(sessions.map((session) => session.id));
    for (const folder of folders) {
      if (known.has(folder.sessionId)) continue;
      if ((report.outOfTime = outOfTime())) break;
      if (await this.retireClaimed(folder.sessionId, signal, true)) report.orphans.push(folder.sessionId);
    }
    // In retentionVictims' order, counting only what did go: a session claimed meanwhile (started) is passed over for the next.
    const { total, order } = retentionOrder(folders, sessions);
    let left = total;
    for (const { session, bytes } of report.outOfTime ? [] : order) {
      if (left <= maxBytes || (report.outOfTime = outOfTime())) break;
      if (!(await this.retireClaimed(session.id, signal, false))) continue;
      report.dropped.push(session);
      left -= bytes;
    }
    report.purged = await this.deps.shelf.purgeRetired(this.bounds.maxFolders, signal);
    return report;
  }

  /** Retires a folder under its session's claim: a session that started meanwhile keeps its checkpoints. */
  private async retireClaimed(sessionId: string, signal: AbortSignal, orphan: boolean): Promise<boolean> {
    const release = this.deps.claim(sessionId);
    if (!release) return false;
    try {
      if (orphan && (await this.deps.sessionExists(sessionId, signal))) return false;
      const retired = await this.deps.shelf.retire(sessionId, signal);
      this.deps.forget(sessionId);
      return retired;
    } finally {
      release();
    }
  }
}

/**
 * Removes a saved session's files: the snapshot first, the commit point (a
 * session is listed by its snapshot; a journal without one is never read), then
 * its journal. A crash between the two leaves a stray journal, not a session.
 */
export async function removeSessionFiles(folder: Pick<JournalFolder, 'remove'>, sessionId: string, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  await folder.remove(snapshotName(sessionId));
  await folder.remove(journalName(sessionId));
}

/** One log line naming what a pass removed; undefined when it removed nothing. */
export function retentionNotice(report: RetentionReport, maxBytes: number): string | undefined {
  const parts: string[] = [];
  if (report.dropped.length > 0) {
    const names = report.dropped.map((session) => `"${session.title.slice(0, 80) || session.id}" (${session.id})`).join(', ');
    parts.push(
      `checkpoints of ${report.dropped.length} least recently used agent session(s) dropped to stay under ${Math.round(maxBytes / 1024 / 1024)} MB: ${names}`,
    );
  }
  if (report.orphans.length > 0) parts.push(`${report.orphans.length} checkpoint folder(s) of deleted sessions removed`);
  if (report.outOfTime) parts.push('stopped at its time bound; the rest waits for the next pass');
  return parts.length > 0 ? `Checkpoint storage: ${parts.join('; ')}.` : undefined;
}
