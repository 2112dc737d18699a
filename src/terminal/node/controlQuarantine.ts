/**
 * Where control paths a sandboxed command left are moved: a folder of the
 * session outside the workspace, one batch folder per command. Every move
 * starts from the path's folder opened without following a link and checked
 * to be where it should be; the move then goes through that open folder
 * (/proc/self/fd/N/name), so a process that swaps a folder on the way for a
 * link, even while the move runs, cannot make it take something outside the
 * workspace. Linux only, as the sandbox is.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { cp, lstat, mkdir, open, readdir, readlink, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shownPath, type ControlPathKind, type ControlRollback, type MovedControlPath } from '../common/controlPaths';
import type { QuarantinedControlPaths } from '../common/commandPorts';

export interface QuarantineOptions {
  /** The workspace's real path. */
  root: string;
  /** The session's quarantine folder: outside the workspace, on the same file system when possible (a move is then a rename). */
  folder: string;
  /** Batches kept; older ones are deleted. Default 20. */
  maxBatches?: number;
  /** A path on another file system is copied only up to this many bytes, else deleted. Default 64 MiB. */
  maxCopyBytes?: number;
  /** … and this many entries. Default 20,000. */
  maxCopyEntries?: number;
}

/** A path that is no longer where the move expected it: a folder on the way was swapped, or it is gone. */
export class ControlPathMoved extends Error {}

export class ControlQuarantine {
  constructor(readonly options: QuarantineOptions) {}

  /** A new, empty batch for one command; the oldest batches beyond the bound are deleted first. */
  async openBatch(signal: AbortSignal): Promise<QuarantineBatch> {
    await mkdir(this.options.folder, { recursive: true, mode: 0o700 });
    await this.prune(signal);
    const name = `${Date.now().toString(36).padStart(10, '0')}-${randomBytes(4).toString('hex')}`;
    const folder = join(this.options.folder, name);
    await mkdir(folder, { mode: 0o700 });
    return new QuarantineBatch(this.options, folder);
  }

  private async prune(signal: AbortSignal): Promise<void> {
    const batches = (await readdir(this.options.folder)).filter((name) => /^[0-9a-z]{10}-[0-9a-f]{8}$/.test(name)).sort();
    const excess = batches.length - ((this.options.maxBatches ?? 20) - 1);
    for (const name of batches.slice(0, Math.max(0, excess))) {
      signal.throwIfAborted();
      await rm(join(this.options.folder, name), { recursive: true, force: true });
    }
  }
}

interface KeptItem {
  moved: MovedControlPath;
  /** Where it is kept now: the batch folder's item, or (another file system, until `settleHeld`) a neutral name beside it. */
  stored: string;
  held?: { parent: string; name: string };
}

export class QuarantineBatch implements QuarantinedControlPaths {
  private readonly items: KeptItem[] = [];
  /** The next item's name in the batch folder, taken before the move's first await so concurrent moves never share one. */
  private nextItem = 0;
  readonly rollback: ControlRollback = { moved: [], failed: [] };

  constructor(
    private readonly options: QuarantineOptions,
    readonly folder: string,
  ) {}

  /**
   * Moves the control path `path` (workspace-relative) out of the workspace at
   * once. On another file system it is first renamed in place to a neutral name
   * (no longer a control path), and copied out by settleHeld once the command is over.
   */
  async moveAside(path: string, kind: ControlPathKind, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const { parent, name } = split(path);
    const item = join(this.folder, String(this.nextItem++));
    try {
      await withPinnedFolder(this.options.root, parent, async (folder) => {
        try {
          await rename(`${folder}/${name}`, item);
          this.keep({ moved: { path, kind, kept: true }, stored: item });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
          const heldName = `.gateway-held-${randomBytes(6).toString('hex')}`;
          await rename(`${folder}/${name}`, `${folder}/${heldName}`);
          this.keep({ moved: { path, kind, kept: true }, stored: item, held: { parent, name: heldName } });
        }
      });
    } catch (error) {
      this.rollback.failed.push({ path, reason: reasonOf(error) });
    }
  }

  /** Copies what was held beside its place (another file system) into the batch, bounded, then deletes it there. Once the command is over. */
  async settleHeld(signal: AbortSignal): Promise<void> {
    for (const item of this.items) {
      if (!item.held) continue;
      const held = item.held;
      item.held = undefined;
      await withPinnedFolder(this.options.root, held.parent, async (folder) => {
        const source = `${folder}/${held.name}`;
        const fits = await fitsBounds(source, this.options.maxCopyBytes ?? 64 * 1024 * 1024, this.options.maxCopyEntries ?? 20_000, signal);
        if (fits) await cp(source, item.stored, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
        item.moved.kept = fits;
        await rm(source, { recursive: true, force: true });
      }).catch((error: unknown) => {
        item.moved.kept = false;
        this.rollback.failed.push({
          path: item.moved.path,
          reason: `it was renamed to ${shownPath(held.parent ? `${held.parent}/${held.name}` : held.name)} but not taken out: ${reasonOf(error)}`,
        });
      });
    }
    await writeFile(
      join(this.folder, 'moved.json'),
      JSON.stringify(
        this.items.map(({ moved, stored }) => ({ ...moved, stored })),
        null,
        1,
      ),
    ).catch(() => undefined);
  }

  async restore(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const item = this.items.find((candidate) => candidate.moved.path === path && candidate.moved.kept && !candidate.held);
    if (!item) throw new Error(`${shownPath(path)} is not kept here (it was deleted, restored or discarded already)`);
    const { parent, name } = split(path);
    await withPinnedFolder(this.options.root, parent, async (folder) => {
      const target = `${folder}/${name}`;
      if (await lstat(target).catch(() => undefined)) throw new ControlPathMoved(`something is at ${shownPath(path)} now; move it away first`);
      try {
        await rename(item.stored, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await cp(item.stored, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
        await rm(item.stored, { recursive: true, force: true });
      }
    });
    item.moved.kept = false;
  }

  async discard(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(this.folder, { recursive: true, force: true });
    for (const item of this.items) item.moved.kept = false;
  }

  private keep(item: KeptItem): void {
    this.items.push(item);
    this.rollback.moved.push(item.moved);
  }
}

/**
 * Runs `work` with `parent` (workspace-relative folder, '' for the root) open
 * and checked: opened without following a final link, and really at
 * root/parent (no folder on the way swapped for a link). `work` gets the open
 * folder's /proc path: names under it resolve in that folder, whatever happens
 * to the path meanwhile.
 */
async function withPinnedFolder<T>(root: string, parent: string, work: (folder: string) => Promise<T>): Promise<T> {
  const expected = parent === '' ? root : join(root, ...parent.split('/'));
  const handle = await open(expected, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch((error: unknown) => {
    throw new ControlPathMoved(`its folder ${shownPath(parent || '.')} is gone or is a link now (${reasonOf(error)})`);
  });
  try {
    const folder = `/proc/self/fd/${handle.fd}`;
    if ((await readlink(folder)) !== expected) throw new ControlPathMoved(`its folder ${shownPath(parent || '.')} was moved while it was being taken out`);
    return await work(folder);
  } finally {
    await handle.close();
  }
}

/** Whether the tree at `path` (not following links) is within the bounds; it stops counting at the first excess. */
async function fitsBounds(path: string, maxBytes: number, maxEntries: number, signal: AbortSignal): Promise<boolean> {
  let bytes = 0;
  let entries = 0;
  const pending = [path];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const current = pending.pop() as string;
    const info = await lstat(current);
    bytes += info.size;
    if (++entries > maxEntries || bytes > maxBytes) return false;
    if (info.isDirectory()) for (const name of await readdir(current)) pending.push(`${current}/${name}`);
  }
  return true;
}

function split(path: string): { parent: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? { parent: '', name: path } : { parent: path.slice(0, slash), name: path.slice(slash + 1) };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
