/**
 * The file operations of the unsandboxed tools, each through a handle checked
 * after it was opened (anchoredPaths.ts): read, write in place, list, remove,
 * and the two-phase replace of a checkpoint restore (a temporary file made in
 * the checked folder, then renamed over the file within that same folder).
 */
import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { NotAFileError, OutsideWorkspaceError, type AnchoredAction } from './anchoredRefusals';
import { errorCode, type VerifiedFolder } from './anchoredHandles';
import { WorkspaceAnchor } from './anchoredPaths';

/** The most bytes a text read takes (the tools' own limits are far lower): a file that grew past it is refused. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

export class AnchoredFiles {
  constructor(readonly anchor: WorkspaceAnchor) {}

  /** The file's text, read through the checked handle. */
  async readText(path: string, signal: AbortSignal): Promise<string> {
    signal.throwIfAborted();
    const { handle } = await this.anchor.openFile(path, { action: 'read' });
    try {
      const { size } = await handle.stat();
      if (size > MAX_READ_BYTES) throw new Error(`"${path}" is larger than ${MAX_READ_BYTES} bytes; nothing was read.`);
      return await handle.readFile({ encoding: 'utf8', signal });
    } finally {
      await handle.close();
    }
  }

  /**
   * Replaces the file's content in place (it keeps its permissions, and a
   * symlink inside the workspace keeps pointing where it did), creating it and
   * its folders when missing. `expected`: the real workspace path the caller
   * checked; the write lands there or nowhere.
   */
  async write(path: string, content: string, signal: AbortSignal, expected?: string): Promise<void> {
    signal.throwIfAborted();
    const { handle } = await this.anchor.openFile(path, { action: 'write', write: true, create: true, expected });
    try {
      await handle.truncate(0);
      await handle.writeFile(content, { encoding: 'utf8', signal });
    } finally {
      await handle.close();
    }
  }

  /** The entries of a folder, read through its checked handle. */
  async list(path: string, signal: AbortSignal): Promise<Dirent[]> {
    signal.throwIfAborted();
    const folder = await this.anchor.openFolder(this.anchor.segments(path, 'read'), { action: 'read', requested: path });
    try {
      // A protected folder (.git, .ssh) reached through a link re-pointed since the tool's check is not listed either.
      this.anchor.checkPolicy(path, this.anchor.relativeInside(folder.realRoot, folder.real, path, 'read'), 'read');
      return await readdir(folder.self, { withFileTypes: true });
    } finally {
      await folder.close();
    }
  }

  /**
   * Removes the name `path` (a symlink itself, not what it points to) from its
   * checked folder; nothing when it is gone, or when its folder is.
   */
  async remove(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.inParent(path, 'delete', async (folder, name) => {
      const info = await lstat(folder.entry(name)).catch(ignoreMissing);
      if (info === undefined) return;
      if (info.isDirectory()) throw new NotAFileError(path, 'delete');
      await unlink(folder.entry(name)).catch(ignoreMissing);
    });
  }

  /**
   * Writes `content` to `temporary`, a new file beside `path` in its checked
   * folder (made when missing), with the permissions `path` has now.
   */
  async stage(path: string, temporary: string, content: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.inParent(
      path,
      'write',
      async (folder, name) => {
        this.checkEntry(path, folder, temporary, 'write', 'protection');
        const current = await lstat(folder.entry(name)).catch(ignoreMissing);
        const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
        const handle = await open(folder.entry(temporary), flags, 0o666);
        try {
          await handle.writeFile(content, { encoding: 'utf8', signal });
          if (current?.isFile()) await handle.chmod(current.mode & 0o7777);
          await handle.sync();
        } finally {
          await handle.close();
        }
      },
      true,
    );
  }

  /** Renames `temporary` over `path` within their checked folder; nothing when the temporary file is gone (renamed before a crash). */
  async commit(path: string, temporary: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.inParent(path, 'write', async (folder, name) => {
      this.checkEntry(path, folder, temporary, 'write', 'protection');
      const staged = await lstat(folder.entry(temporary)).catch(ignoreMissing);
      if (staged === undefined) return;
      if (!staged.isFile()) throw new NotAFileError(`${path} (its staged copy)`, 'write');
      const target = await lstat(folder.entry(name)).catch(ignoreMissing);
      if (target?.isDirectory()) throw new NotAFileError(path, 'write');
      await rename(folder.entry(temporary), folder.entry(name));
    });
  }

  /** Removes `temporary` from beside `path`; nothing when it is gone. */
  async discard(path: string, temporary: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.inParent(path, 'delete', async (folder) => {
      this.checkEntry(path, folder, temporary, 'delete', 'protection');
      const info = await lstat(folder.entry(temporary)).catch(ignoreMissing);
      if (info === undefined) return;
      if (info.isDirectory()) throw new NotAFileError(`${path} (its staged copy)`, 'delete');
      await unlink(folder.entry(temporary)).catch(ignoreMissing);
    });
  }

  /**
   * Runs `work` on the checked folder of `path` and its last name, after the
   * policy allowed a change of `path` there. A missing folder: nothing to do,
   * unless `create` (then it is made).
   */
  private async inParent(path: string, action: AnchoredAction, work: (folder: VerifiedFolder, name: string) => Promise<void>, create = false): Promise<void> {
    const segments = this.anchor.segments(path, action);
    const name = segments.pop();
    if (name === undefined) throw new NotAFileError(path, action);
    // By the name asked for first: a protected path is refused even where nothing is there.
    this.anchor.checkPolicy(path, path, action);
    let folder: VerifiedFolder;
    try {
      folder = await this.anchor.openFolder(segments, { action, requested: path, create });
    } catch (error) {
      if (!create && isMissing(error)) return;
      throw error;
    }
    try {
      this.checkEntry(path, folder, name, action);
      await work(folder, name);
    } finally {
      await folder.close();
    }
  }

  /** The entry `name` of the checked folder, as a workspace path, passes the policy for `action` on `path` (see checkPolicy's `scope`). */
  private checkEntry(path: string, folder: VerifiedFolder, name: string, action: AnchoredAction, scope: 'file' | 'protection' = 'file'): void {
    if (name.includes('/') || name === '.' || name === '..' || name === '') throw new OutsideWorkspaceError(path, action);
    const real = this.anchor.relativeInside(folder.realRoot, join(folder.real, name), path, action);
    this.anchor.checkPolicy(path, real, action, scope);
  }
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function ignoreMissing(error: unknown): undefined {
  if (errorCode(error) === 'ENOENT') return undefined;
  throw error;
}
