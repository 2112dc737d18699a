/**
 * The checkpoint ports on the local file system: a session's checkpoint folder
 * (blobs named by their sha256, records written through a temporary file and a
 * rename) and the two-phase writes of a restore into the workspace.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CheckpointFolder, CheckpointRecord, WorkspaceRestore } from '../core/ports';
import { checkWriteTarget } from './nodeFileChanges';
import { absoluteInside } from './workspaceRoot';

const HASH = /^[0-9a-f]{64}$/;
const NONCE = /^[0-9a-z]{1,32}$/;

export class NodeCheckpointFolder implements CheckpointFolder {
  private writes = 0;

  constructor(private readonly folder: string) {}

  private get blobs(): string {
    return join(this.folder, 'blobs');
  }

  async putBlob(text: string, signal: AbortSignal): Promise<{ hash: string; size: number }> {
    signal.throwIfAborted();
    const bytes = Buffer.from(text, 'utf8');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const target = join(this.blobs, hash);
    const existing = await stat(target).catch(() => undefined);
    // Same name, same content: a blob that is there (whole: blobs are renamed into place) is not written again.
    if (existing?.size === bytes.length) return { hash, size: bytes.length };
    await mkdir(this.blobs, { recursive: true });
    await this.writeThenRename(target, bytes);
    return { hash, size: bytes.length };
  }

  async getBlob(hash: string, signal: AbortSignal): Promise<string | undefined> {
    signal.throwIfAborted();
    if (!HASH.test(hash)) return undefined;
    return unlessMissing(readFile(join(this.blobs, hash), 'utf8'));
  }

  async blobSizes(signal: AbortSignal): Promise<Map<string, number>> {
    signal.throwIfAborted();
    const sizes = new Map<string, number>();
    const names = (await unlessMissing(readdir(this.blobs))) ?? [];
    for (const name of names) {
      if (!HASH.test(name)) continue;
      const info = await stat(join(this.blobs, name)).catch(() => undefined);
      if (info?.isFile()) sizes.set(name, info.size);
    }
    return sizes;
  }

  async removeBlob(hash: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (HASH.test(hash)) await rm(join(this.blobs, hash), { force: true });
  }

  async read(name: CheckpointRecord, signal: AbortSignal): Promise<string | undefined> {
    signal.throwIfAborted();
    return unlessMissing(readFile(this.record(name), 'utf8'));
  }

  async writeAtomic(name: CheckpointRecord, text: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await mkdir(this.folder, { recursive: true });
    await this.writeThenRename(this.record(name), Buffer.from(text, 'utf8'));
  }

  async remove(name: CheckpointRecord, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(this.record(name), { force: true });
  }

  private record(name: CheckpointRecord): string {
    return join(this.folder, `${name}.json`);
  }

  /** Each write its own temporary file: two writes at once must not rename each other's file away. */
  private async writeThenRename(target: string, bytes: Buffer): Promise<void> {
    const temporary = `${target}.${++this.writes}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, bytes, { flush: true });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

/** A restore's writes into the workspace at `root`: each path checked again at the last moment (inside the root, not a hard link). */
export class NodeWorkspaceRestore implements WorkspaceRestore {
  constructor(private readonly root: string) {}

  async stage(path: string, nonce: string, content: string, signal: AbortSignal): Promise<void> {
    await checkWriteTarget(this.root, path, signal);
    const target = absoluteInside(this.root, path);
    await mkdir(dirname(target), { recursive: true });
    const staged = this.staged(path, nonce);
    // The file keeps its permissions: the renamed copy takes the old one's mode.
    const mode = (await stat(target).catch(() => undefined))?.mode;
    await writeFile(staged, content, { encoding: 'utf8', flag: 'wx', flush: true, signal });
    if (mode !== undefined) await chmod(staged, mode & 0o7777);
  }

  async commit(path: string, nonce: string, signal: AbortSignal): Promise<void> {
    await checkWriteTarget(this.root, path, signal);
    const staged = this.staged(path, nonce);
    if (!(await stat(staged).catch(() => undefined))) return;
    await rename(staged, absoluteInside(this.root, path));
  }

  async remove(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(absoluteInside(this.root, path), { force: true });
  }

  async discard(path: string, nonce: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(this.staged(path, nonce), { force: true });
  }

  /** `.name.gw-restore-NONCE.tmp` beside the file: a rename in one folder is atomic. */
  private staged(path: string, nonce: string): string {
    if (!NONCE.test(nonce)) throw new Error(`Invalid restore name ${nonce}`);
    const target = absoluteInside(this.root, path);
    return join(dirname(target), `.${basename(target)}.gw-restore-${nonce}.tmp`);
  }
}

/** The operation's result, or undefined when what it works on is not there (ENOENT). */
export async function unlessMissing<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
