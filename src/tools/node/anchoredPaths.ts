/**
 * Anchored paths: reaching a file of the workspace so that a symlink re-pointed
 * meanwhile (by a process the sandbox left running) cannot carry a read, a
 * write or a delete anywhere else (issue 21, finding 4).
 *
 * A path is never trusted as a string. Its folders are opened one at a time,
 * each relative to the folder opened before it, and each opened folder is
 * checked, by what the kernel says the open handle is (`/proc/self/fd/N`), to
 * be inside the workspace's real root. The file is then opened inside that
 * pinned folder through `/proc/self/fd/<folder>/<name>` with O_NOFOLLOW: a
 * component swapped after the check cannot redirect it, and a final symlink is
 * not followed by the kernel but read and followed here, hop by hop, each hop
 * checked the same way. The opened file is checked again (inside, not
 * protected, not a control file the caller did not name, the path expected) and
 * only then read or written, through the handle.
 *
 * Without /proc (macOS, Windows) the same steps run on real paths, and every
 * opened file's identity (device and inode) is compared with what its checked
 * path holds after the open: a read or write that was redirected is refused
 * before a byte moves, but a file created or a name removed in a folder swapped
 * between the check and the call is not prevented, only the Linux path is
 * race-free.
 */
import { constants } from 'node:fs';
import { mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isControlPath } from '../../terminal/common';
import { normalizeWorkspacePath } from '../common/pathPolicy';
import { protectingPattern } from '../../base/common';
import { defaultProtectedFiles } from '../../settings/common';
import {
  ChangedWhileOpenedError,
  ControlFileError,
  HardLinkError,
  InvalidWorkspacePathError,
  NotAFileError,
  OutsideWorkspaceError,
  ProtectedFileError,
  type AnchoredAction,
} from './anchoredRefusals';
import { isInside, workspaceRelative } from '../../base/node';
import { errorCode, handleFolder, pathFolder, sameFileAs, type VerifiedFolder } from './anchoredHandles';
import type { AnchorOptions, FileRequest, FolderRequest, OpenedFile } from './anchoredRequests';

/** Symlinks followed in a row before giving up (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;
/** Folders in a path: deeper is refused (the kernel's own path limit is 4096 bytes). */
const MAX_SEGMENTS = 256;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOCTTY = constants.O_NOCTTY ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

export class WorkspaceAnchor {
  private readonly protectedFiles: () => readonly string[];
  /** Whether /proc/self/fd names open handles here (Linux); elsewhere the weaker way described above. */
  private readonly proc: boolean;

  constructor(
    readonly root: string,
    options: AnchorOptions = {},
  ) {
    this.protectedFiles = options.protectedFiles ?? (() => defaultProtectedFiles);
    this.proc = process.platform === 'linux' && options.procFd !== false;
  }

  /** The segments of a plain workspace path (`.` has none); anything else is refused. */
  segments(path: string, action: AnchoredAction): string[] {
    const normalized = normalizeWorkspacePath(path);
    // Refused by the policy: absolute, `..` past the root, a home folder, a NUL, empty.
    if (!normalized.ok) throw new OutsideWorkspaceError(path, action);
    if (normalized.path !== path) throw new InvalidWorkspacePathError(path, action, `is not a plain workspace path (that would be "${normalized.path}")`);
    const segments = path === '.' ? [] : path.split('/');
    if (segments.length > MAX_SEGMENTS) throw new InvalidWorkspacePathError(path, action, `has more than ${MAX_SEGMENTS} folders`);
    return segments;
  }

  /**
   * Opens the folder `segments` lead to and checks that the handle is inside
   * the workspace. The kernel may follow links on the way: only where it
   * arrived matters, and no folder is anything but opened. With `create`,
   * missing folders are made one at a time, each inside the folder opened and
   * checked before it, and only where the policy lets `requested` be written.
   */
  async openFolder(segments: readonly string[], request: FolderRequest): Promise<VerifiedFolder> {
    const realRoot = request.realRoot ?? (await realpath(this.root));
    if (!this.proc) return this.walk(segments, realRoot, request);
    let handle: FileHandle;
    try {
      handle = await open(join(realRoot, ...segments), constants.O_RDONLY | DIRECTORY);
    } catch (error) {
      if (request.create === true && errorCode(error) === 'ENOENT') return this.walk(segments, realRoot, request);
      throw error;
    }
    return this.checkedFolder(handle, realRoot, request);
  }

  /** The folder opened one segment at a time from the root (to make missing ones, or without /proc). */
  private async walk(segments: readonly string[], realRoot: string, request: FolderRequest): Promise<VerifiedFolder> {
    let folder = await this.openRoot(realRoot, request);
    try {
      for (const segment of segments) {
        const next = await this.openChild(folder, segment, realRoot, request);
        await folder.close();
        folder = next;
      }
      return folder;
    } catch (error) {
      await folder.close();
      throw error;
    }
  }

  /** Opens a file by its workspace path, following links inside the workspace hop by hop; the handle is checked before it is returned. */
  async openFile(path: string, request: FileRequest): Promise<OpenedFile> {
    let current = path;
    for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
      const segments = this.segments(current, request.action);
      const name = segments.pop();
      if (name === undefined) throw new NotAFileError(path, request.action);
      const realRoot = await realpath(this.root);
      const folder = await this.openFolder(segments, { action: request.action, requested: path, create: request.create, realRoot });
      try {
        const opened = await this.openEntry(folder, name, path, realRoot, request);
        if ('link' in opened) {
          current = this.linkTarget(folder.real, opened.link, realRoot, path, request.action);
          continue;
        }
        return opened;
      } finally {
        await folder.close();
      }
    }
    throw new InvalidWorkspacePathError(path, request.action, `passes more than ${MAX_LINK_HOPS} symbolic links`);
  }

  /**
   * Refuses what `real` (workspace-relative, where the operation would land)
   * may not be: a protected file, by its own name or the name asked for, or,
   * for a change, a control file reached by another name than the one asked for.
   * `protection`: the first check alone (a restore's temporary file beside a file already checked).
   */
  checkPolicy(requested: string, real: string, action: AnchoredAction, scope: 'file' | 'protection' = 'file'): void {
    const patterns = this.protectedFiles();
    const pattern = protectingPattern(real, patterns) ?? protectingPattern(requested, patterns);
    if (pattern !== undefined) throw new ProtectedFileError(requested, action, real, pattern);
    if (scope === 'file' && action !== 'read' && isControlPath(real) && real !== requested && !requested.startsWith(`${real}/`)) {
      throw new ControlFileError(requested, action, real);
    }
  }

  /** The workspace-relative path of a real absolute path, or the refusal when it is not inside the root. */
  relativeInside(realRoot: string, real: string, requested: string, action: AnchoredAction): string {
    if (!isInside(realRoot, real)) throw new OutsideWorkspaceError(requested, action, real);
    return workspaceRelative(realRoot, real);
  }

  private async openRoot(realRoot: string, request: FolderRequest): Promise<VerifiedFolder> {
    if (!this.proc) return pathFolder(realRoot, realRoot);
    const handle = await open(realRoot, constants.O_RDONLY | DIRECTORY);
    // On Linux /proc is required: an error here fails the operation, it never falls back to the weaker way.
    const named = await readlink(`/proc/self/fd/${handle.fd}`).catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (named !== realRoot) {
      await handle.close();
      throw new ChangedWhileOpenedError(request.requested, request.action, 'the workspace folder itself moved');
    }
    return handleFolder(handle, realRoot, realRoot);
  }

  private async openChild(parent: VerifiedFolder, segment: string, realRoot: string, request: FolderRequest): Promise<VerifiedFolder> {
    if (!this.proc) {
      const real = await realpath(parent.entry(segment)).catch(async (error: unknown) => {
        if (request.create !== true || errorCode(error) !== 'ENOENT') throw error;
        await this.makeFolder(parent, segment, realRoot, request);
        return realpath(parent.entry(segment));
      });
      this.relativeInside(realRoot, real, request.requested, request.action);
      return pathFolder(real, realRoot);
    }
    // Followed if it is a symlink: where it leads is checked once it is open. O_DIRECTORY: nothing else is opened.
    const handle = await open(parent.entry(segment), constants.O_RDONLY | DIRECTORY).catch(async (error: unknown) => {
      if (request.create !== true || errorCode(error) !== 'ENOENT') throw error;
      await this.makeFolder(parent, segment, realRoot, request);
      // Not followed: a link put there since the name was missing is a change under way, refused.
      return open(parent.entry(segment), constants.O_RDONLY | DIRECTORY | NOFOLLOW).catch((retry: unknown) => {
        const code = errorCode(retry);
        if (code === 'ENOTDIR' || code === 'ELOOP') throw new ChangedWhileOpenedError(request.requested, request.action, `"${segment}" was replaced`);
        throw retry;
      });
    });
    return this.checkedFolder(handle, realRoot, request);
  }

  /** An open folder handle, once the kernel says it is inside the workspace (closed otherwise). */
  private async checkedFolder(handle: FileHandle, realRoot: string, request: FolderRequest): Promise<VerifiedFolder> {
    try {
      const real = await readlink(`/proc/self/fd/${handle.fd}`);
      this.relativeInside(realRoot, real, request.requested, request.action);
      return handleFolder(handle, real, realRoot);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** A missing folder, made inside its checked parent, only where a write of `requested` may go. */
  private async makeFolder(parent: VerifiedFolder, segment: string, realRoot: string, request: { action: AnchoredAction; requested: string }) {
    this.checkPolicy(request.requested, this.relativeInside(realRoot, join(parent.real, segment), request.requested, request.action), request.action);
    await mkdir(parent.entry(segment), 0o777).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
  }

  private async openEntry(
    folder: VerifiedFolder,
    name: string,
    requested: string,
    realRoot: string,
    request: FileRequest,
  ): Promise<OpenedFile | { link: string }> {
    const prospective = this.relativeInside(realRoot, join(folder.real, name), requested, request.action);
    this.checkPolicy(requested, prospective, request.action);
    const flags = (request.write === true ? constants.O_WRONLY : constants.O_RDONLY) | NOFOLLOW | NONBLOCK | NOCTTY;
    let handle: FileHandle;
    let created = false;
    try {
      handle = await open(folder.entry(name), flags);
    } catch (error) {
      const code = errorCode(error);
      // O_NOFOLLOW on a symlink: ELOOP on Linux, EMLINK on the BSDs (macOS says ELOOP too).
      if (code === 'ELOOP' || code === 'EMLINK') return { link: await readlink(folder.entry(name)) };
      // A FIFO without a reader, or a socket: not a file the agent can use.
      if (code === 'ENXIO') throw new NotAFileError(requested, request.action);
      if (code !== 'ENOENT' || request.create !== true) throw error;
      handle = await open(folder.entry(name), flags | constants.O_CREAT | constants.O_EXCL, 0o666).catch((raced: unknown) => {
        // Something made the name between the two opens (a link another process renamed in): what it is now was never checked.
        if (errorCode(raced) === 'EEXIST') throw new ChangedWhileOpenedError(requested, request.action, 'it appeared while it was being created');
        throw raced;
      });
      created = true;
    }
    try {
      const [real, info] = await Promise.all([
        this.proc ? readlink(`/proc/self/fd/${handle.fd}`) : sameFileAs(handle, join(folder.real, name), requested, request.action),
        handle.stat(),
      ]);
      // Removed since it was opened: /proc names it "<path> (deleted)", which is no path at all.
      if (info.nlink === 0) throw new ChangedWhileOpenedError(requested, request.action, 'it was removed');
      const relative = this.relativeInside(realRoot, real, requested, request.action);
      this.checkPolicy(requested, relative, request.action);
      if (request.expected !== undefined && relative !== request.expected) {
        throw new ChangedWhileOpenedError(requested, request.action, `it led to "${relative}", not "${request.expected}"`);
      }
      if (!info.isFile()) throw new NotAFileError(requested, request.action);
      if (!created && info.nlink > 1) throw new HardLinkError(requested, request.action, info.nlink);
      return { handle, real: relative, created };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Where a final symlink in `folderReal` leads, as a workspace path; refused when that is outside. */
  private linkTarget(folderReal: string, link: string, realRoot: string, requested: string, action: AnchoredAction): string {
    return this.relativeInside(realRoot, resolve(folderReal, link), requested, action);
  }
}
