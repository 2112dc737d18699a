/** The FileChanges port on the local file system. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FileChanges } from '../core/ports';
import { absoluteInside } from './workspaceRoot';

export class NodeFileChanges implements FileChanges {
  constructor(readonly root: string) {}

  /**
   * Writes in place rather than through a temporary file and a rename, so the
   * file keeps its permissions and a symlink (already checked to stay inside)
   * keeps pointing where it did.
   */
  async write(path: string, content: string, signal: AbortSignal): Promise<void> {
    const absolute = absoluteInside(this.root, path);
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, content, { encoding: 'utf8', signal });
  }

  async delete(path: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(absoluteInside(this.root, path), { force: true });
  }
}
