/** The FileChanges port on the local file system: every write and delete through a handle checked after it was opened (anchoredFiles.ts). */
import type { FileChanges, WriteExpectation } from '../../base/common';
import { AnchoredFiles } from './anchoredFiles';
import { WorkspaceAnchor } from './anchoredPaths';
import type { AnchorOptions } from './anchoredRequests';

export class NodeFileChanges implements FileChanges {
  private readonly files: AnchoredFiles;

  constructor(
    readonly root: string,
    options: AnchorOptions = {},
  ) {
    this.files = new AnchoredFiles(new WorkspaceAnchor(root, options));
  }

  /**
   * Writes in place rather than through a temporary file and a rename, so the
   * file keeps its permissions and a symlink (inside the workspace) keeps
   * pointing where it did. The file is opened inside its checked folder, and
   * the open file itself is checked (inside the workspace, not protected, not a
   * control file it was not named as, where the caller's check said it was)
   * before a byte is written: a symlink re-pointed after the tool's check
   * cannot carry the write elsewhere.
   */
  async write(path: string, content: string, signal: AbortSignal, expected?: WriteExpectation): Promise<void> {
    await this.files.write(path, content, signal, expected?.realPath);
  }

  /** Removes the name from its checked folder: a folder re-pointed outside cannot make this delete a file there. */
  async delete(path: string, signal: AbortSignal): Promise<void> {
    await this.files.remove(path, signal);
  }
}
