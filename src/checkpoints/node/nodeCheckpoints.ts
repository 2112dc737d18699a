/**
 * The checkpoint ports on the local file system: a session's checkpoint folder
 * (blobs named by their sha256, records written through a temporary file and a
 * rename) and the two-phase writes of a restore into the workspace.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointFolder, CheckpointRecord, WorkspaceRestore } from '../common/checkpointPorts';
import { appendWhole, writeFileAtomic } from '../../base/node';
import { AnchoredFiles, WorkspaceAnchor, type AnchorOptions } from '../../tools/node';

const HASH = /^[0-9a-f]{64}$/;
const NONCE = /^[0-9a-z]{1,32}$/;

export class NodeCheckpointFolder implements CheckpointFolder {
  /**
   * Sizes of the blobs stat'ed or written so far. A blob's name is its content's hash and blobs are
   * renamed into place whole, so a name's size never changes: blobSizes stats only the new ones
   * (each checkpoint asked for all of them, a step's cost growing with the session's blobs).
   */
  private readonly knownSizes = new Map<string, number>();

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
    if (existing?.size !== bytes.length) {
      await mkdir(this.blobs, { recursive: true });
      await writeFileAtomic(target, bytes, { signal });
    }
    this.knownSizes.set(hash, bytes.length);
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
      const known = this.knownSizes.get(name);
      if (known !== undefined) {
        sizes.set(name, known);
        continue;
      }
      const info = await stat(join(this.blobs, name)).catch(() => undefined);
      if (info?.isFile()) sizes.set(name, info.size);
    }
    // Blobs removed by others (the retention pass, another window) are forgotten with the listing.
    this.knownSizes.clear();
    for (const [name, size] of sizes) this.knownSizes.set(name, size);
    return sizes;
  }

  async removeBlob(hash: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    this.knownSizes.delete(hash);
    if (HASH.test(hash)) await rm(join(this.blobs, hash), { force: true });
  }

  async read(name: CheckpointRecord, signal: AbortSignal): Promise<string | undefined> {
    signal.throwIfAborted();
    return unlessMissing(readFile(this.record(name), 'utf8'));
  }

  async writeAtomic(name: CheckpointRecord, text: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await mkdir(this.folder, { recursive: true });
    await writeFileAtomic(this.record(name), text, { signal });
  }

  async append(name: CheckpointRecord, text: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await mkdir(this.folder, { recursive: true });
    await appendWhole(this.record(name), text, { signal });
  }

  async remove(name: CheckpointRecord, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(this.record(name), { force: true });
  }

  private record(name: CheckpointRecord): string {
    return join(this.folder, `${name}.json`);
  }
}

/**
 * A restore's writes into the workspace at `root`, each through its checked
 * folder (anchoredFiles.ts): the staged copy is made in the folder the check
 * opened and renamed over the file within that same folder, and a removal
 * unlinks the name there, so a folder re-pointed outside meanwhile cannot
 * carry a restore (or a replayed journal) out of the workspace.
 */
export class NodeWorkspaceRestore implements WorkspaceRestore {
  private readonly files: AnchoredFiles;

  constructor(root: string, options: AnchorOptions = {}) {
    this.files = new AnchoredFiles(new WorkspaceAnchor(root, options));
  }

  async stage(path: string, nonce: string, content: string, signal: AbortSignal): Promise<void> {
    await this.files.stage(path, stagedName(path, nonce), content, signal);
  }

  async commit(path: string, nonce: string, signal: AbortSignal): Promise<void> {
    await this.files.commit(path, stagedName(path, nonce), signal);
  }

  async remove(path: string, signal: AbortSignal): Promise<void> {
    await this.files.remove(path, signal);
  }

  async discard(path: string, nonce: string, signal: AbortSignal): Promise<void> {
    await this.files.discard(path, stagedName(path, nonce), signal);
  }
}

/** `.name.gw-restore-NONCE.tmp` beside the file: a rename in one folder is atomic. */
function stagedName(path: string, nonce: string): string {
  if (!NONCE.test(nonce)) throw new Error(`Invalid restore name ${nonce}`);
  return `.${path.slice(path.lastIndexOf('/') + 1)}.gw-restore-${nonce}.tmp`;
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
