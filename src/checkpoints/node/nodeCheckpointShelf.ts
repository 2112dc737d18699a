/**
 * The checkpoint shelf on the local file system: `<root>/<sessionId>/` per
 * session. A folder is retired by renaming it to `<sessionId>.retired-<hex>`
 * (a name no session id can have: ids have no dot), then removed; a crash
 * between the two leaves a retired folder the next pass removes.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointShelf, ShelvedFolder } from '../common/checkpointRetention';
import { unlessMissing } from './nodeCheckpoints';

const SESSION_ID = /^[A-Za-z0-9_-]+$/;
const RETIRED = /^[A-Za-z0-9_-]+\.retired-[0-9a-f]{8}$/;

export class NodeCheckpointShelf implements CheckpointShelf {
  constructor(private readonly root: string) {}

  async folders(bounds: { maxFolders: number; maxEntries: number }, signal: AbortSignal): Promise<ShelvedFolder[]> {
    signal.throwIfAborted();
    const entries = (await unlessMissing(readdir(this.root, { withFileTypes: true }))) ?? [];
    const folders: ShelvedFolder[] = [];
    for (const entry of entries) {
      if (folders.length >= bounds.maxFolders) break;
      if (!entry.isDirectory() || !SESSION_ID.test(entry.name)) continue;
      signal.throwIfAborted();
      folders.push({ sessionId: entry.name, ...(await measure(join(this.root, entry.name), bounds.maxEntries, signal)) });
    }
    return folders;
  }

  async retire(sessionId: string, signal: AbortSignal): Promise<boolean> {
    signal.throwIfAborted();
    if (!SESSION_ID.test(sessionId)) throw new Error(`Invalid session id ${sessionId}`);
    try {
      await rename(join(this.root, sessionId), join(this.root, `${sessionId}.retired-${randomBytes(4).toString('hex')}`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async purgeRetired(maxFolders: number, signal: AbortSignal): Promise<number> {
    signal.throwIfAborted();
    const names = ((await unlessMissing(readdir(this.root))) ?? []).filter((name) => RETIRED.test(name)).slice(0, maxFolders);
    for (const name of names) {
      signal.throwIfAborted();
      await rm(join(this.root, name), { recursive: true, force: true, maxRetries: 2 });
    }
    return names.length;
  }
}

/** The bytes of a checkpoint folder: its records and its `blobs/` (the layout NodeCheckpointFolder writes), over at most `maxEntries` files. */
async function measure(folder: string, maxEntries: number, signal: AbortSignal): Promise<{ bytes: number; truncated: boolean }> {
  let bytes = 0;
  let seen = 0;
  for (const dir of [folder, join(folder, 'blobs')]) {
    for (const name of (await unlessMissing(readdir(dir))) ?? []) {
      if (++seen > maxEntries) return { bytes, truncated: true };
      if (seen % 256 === 0) signal.throwIfAborted();
      const info = await stat(join(dir, name)).catch(() => undefined);
      if (info?.isFile()) bytes += info.size;
    }
  }
  return { bytes, truncated: false };
}
