/**
 * The HookFiles port on this machine's disk: the file a word of a hook's line
 * names, when it is in the workspace or the home folder, is read for the hook's
 * approval through the anchored reads the file tools use (tools/node
 * anchoredPaths.ts): each folder and the file checked after it was opened, a
 * symlink followed only while it stays inside that folder, a protected or
 * hard-linked file refused. Only its sha256 leaves here. A path elsewhere (a
 * program of the system) is never opened.
 */
import { createHash } from 'node:crypto';
import { lstat, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { WorkspaceAnchor } from '../../tools/node';
import { absoluteInside, isInside } from '../../base/node';
import { MAX_HOOK_FILE_BYTES, type HookFileContent, type HookFileRequest, type HookFiles } from '../common/hookContent';
import { protectingPattern } from '../../base/common';
import { changeReviewParts } from '../../terminal/node';
import { folderContents } from './hookFolders';

export interface NodeHookFilesOptions {
  /** Absolute workspace root. */
  root: string;
  /** Absolute home folder; undefined when there is none (then nothing of it is read). */
  home: string | undefined;
  /** `gateway.agent.protectedFiles` now: a protected file is not read, even for a digest. */
  protectedFiles?: () => readonly string[];
}

/** Refusals of the anchored reads (tools/node/anchoredRefusals.ts), by their name: what the approval says. */
const REFUSALS: Readonly<Record<string, (place: string) => string>> = {
  OutsideWorkspaceError: (place) => `it leads outside the ${place}`,
  ProtectedFileError: () => 'it is a protected file',
  HardLinkError: () => 'it has more than one name (a hard link)',
  NotAFileError: () => 'it is not a regular file',
  ChangedWhileOpenedError: () => 'it changed while it was being read',
  InvalidWorkspacePathError: () => 'its path cannot be read safely',
};

/** Paths a chain's texts name looked up (most name nothing), and files digested of it, for one hook. */
const MAX_FOLLOWED_LOOKUPS = 2000;
const MAX_FOLLOWED_FILES = 200;

export class NodeHookFiles implements HookFiles {
  readonly workspaceFolder: string;
  readonly homeFolder: string | undefined;
  private readonly workspace: WorkspaceAnchor;
  private readonly home: WorkspaceAnchor | undefined;

  private readonly protectedFiles: () => readonly string[];

  constructor(options: NodeHookFilesOptions) {
    this.protectedFiles = options.protectedFiles ?? (() => []);
    const anchorOptions = options.protectedFiles ? { protectedFiles: options.protectedFiles } : {};
    this.workspaceFolder = resolve(options.root);
    this.homeFolder = options.home === undefined ? undefined : resolve(options.home);
    this.workspace = new WorkspaceAnchor(this.workspaceFolder, anchorOptions);
    this.home = this.homeFolder === undefined ? undefined : new WorkspaceAnchor(this.homeFolder, anchorOptions);
  }

  async content(request: HookFileRequest, signal: AbortSignal): Promise<HookFileContent | undefined> {
    signal.throwIfAborted();
    const absolute = this.absolute(request);
    if (absolute === undefined) return undefined;
    // The workspace first: it is often inside the home folder.
    const inWorkspace = isInside(this.workspaceFolder, absolute);
    const folder = inWorkspace ? this.workspaceFolder : this.homeFolder !== undefined && isInside(this.homeFolder, absolute) ? this.homeFolder : undefined;
    const anchor = inWorkspace ? this.workspace : this.home;
    if (folder === undefined || anchor === undefined) return undefined;
    const path = relative(folder, absolute).split(sep).join('/');
    if (path === '') return undefined;
    const shown = inWorkspace ? path : `~/${path}`;
    // Nothing there, or a folder: the word names no file. (What a link leads to is looked at, never opened, here.)
    // A dangling link is read below and refused: what it would lead to may appear.
    if ((await lstat(absolute).catch(() => undefined)) === undefined) return undefined;
    if ((await stat(absolute).catch(() => undefined))?.isDirectory() === true) return undefined;
    try {
      return { path: shown, digest: await digestOf(anchor, path, request.maxBytes, signal) };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { path: shown, problem: problemOf(error, inWorkspace ? 'workspace' : 'home folder') };
    }
  }

  async followed(named: readonly HookFileContent[], cwd: string, signal: AbortSignal, line?: string): Promise<HookFileContent[]> {
    // The review's follower, loaded at its first use (terminal/node/changeReviewParts.ts).
    const { followPrograms, mentionedBy, noneMentioned } = changeReviewParts();
    const mentioned = noneMentioned(this.homeFolder);
    // The hook's texts run from its folder (and the workspace's top).
    mentioned.tops.add(this.workspaceFolder);
    try {
      mentioned.tops.add(absoluteInside(this.workspaceFolder, cwd));
    } catch {
      // A folder outside the workspace: nothing of it is read.
    }
    const direct = new Set<string>();
    for (const file of named) {
      if (file.digest === undefined) continue;
      const absolute =
        file.path.startsWith('~/') && this.homeFolder !== undefined ? join(this.homeFolder, file.path.slice(2)) : join(this.workspaceFolder, file.path);
      direct.add(absolute);
      mentioned.programs.add(absolute);
      mentioned.hooks.add(absolute);
    }
    const reached: string[] = [];
    try {
      // The line is read as a hook's text is (its modules, package scripts, Makefile, a `-c` string's paths).
      if (line !== undefined) mentionedBy(line, mentioned, [...mentioned.tops]);
      if (mentioned.programs.size === 0 && mentioned.pending.length === 0) return [];
      await followPrograms({
        root: this.workspaceFolder,
        mentioned,
        add: (path) => {
          if (!direct.has(path)) reached.push(path);
        },
        // The workspace's files but the protected ones, and the home folder's: a program of the system is never read.
        readable: (path) =>
          (isInside(this.workspaceFolder, path) &&
            protectingPattern(relative(this.workspaceFolder, path).split(sep).join('/'), this.protectedFiles()) === undefined) ||
          (this.homeFolder !== undefined && isInside(this.homeFolder, path)),
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return [{ path: '…', problem: `what the hook's files run could not be followed whole (${error instanceof Error ? error.message : String(error)})` }];
    }
    const found: HookFileContent[] = [];
    let looked = 0;
    for (const path of reached) {
      signal.throwIfAborted();
      if (++looked > MAX_FOLLOWED_LOOKUPS) {
        found.push({ path: '…', problem: `what the hook's files run names more than ${MAX_FOLLOWED_LOOKUPS} paths; the rest are not checked` });
        break;
      }
      const content = await this.content({ word: path, from: { cwd: '.' }, maxBytes: MAX_HOOK_FILE_BYTES }, signal);
      // A folder it runs the files of (a glob's, a PATH entry's), but an installed package's (not followed, as in the review).
      const inFolder = content === undefined && !path.split(sep).includes('node_modules') ? await this.folderFiles(path, signal) : undefined;
      if (content !== undefined) found.push(content);
      found.push(...(inFolder ?? []));
      if (found.length > MAX_FOLLOWED_FILES) {
        found.push({ path: '…', problem: `what the hook's files run reaches more than ${MAX_FOLLOWED_FILES} files; the rest are not checked` });
        break;
      }
    }
    return found;
  }

  /** The digests of the files of a folder the hook runs (hookFolders.ts); undefined when `path` is no folder of the workspace or home. */
  private folderFiles(path: string, signal: AbortSignal): Promise<HookFileContent[] | undefined> {
    const base = isInside(this.workspaceFolder, path) ? this.workspaceFolder : this.homeFolder;
    if (base === undefined || !isInside(base, path)) return Promise.resolve(undefined);
    const inside = relative(base, path).split(sep).join('/');
    const shown = base === this.workspaceFolder ? inside : `~/${inside}`;
    return folderContents(path, shown, (request, s) => this.content(request, s), signal);
  }

  /** The absolute path the word names (not resolved through symlinks); undefined when its folder is none here. */
  private absolute(request: HookFileRequest): string | undefined {
    const { word, from } = request;
    if (from === 'workspace') return join(this.workspaceFolder, word);
    if (from === 'home') return this.homeFolder === undefined ? undefined : join(this.homeFolder, word);
    try {
      return resolve(absoluteInside(this.workspaceFolder, from.cwd), word);
    } catch {
      // A folder outside the workspace (the hook files' reader refuses one before): nothing of it is read.
      return undefined;
    }
  }
}

/** The sha256 of the file's bytes, read through the checked handle; a file larger than `maxBytes` is refused unread. */
async function digestOf(anchor: WorkspaceAnchor, path: string, maxBytes: number, signal: AbortSignal): Promise<string> {
  const { handle } = await anchor.openFile(path, { action: 'read' });
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new TooLargeError(`it has ${size} bytes (more than ${maxBytes})`);
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1));
    let total = 0;
    for (;;) {
      signal.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      // It grew while it was read.
      if (total > maxBytes) throw new TooLargeError(`it has more than ${maxBytes} bytes`);
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

class TooLargeError extends Error {}

function problemOf(error: unknown, place: string): string {
  if (error instanceof TooLargeError) return error.message;
  const refusal = error instanceof Error && Object.hasOwn(REFUSALS, error.name) ? REFUSALS[error.name] : undefined;
  if (refusal !== undefined) return refusal(place);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return `it could not be read (${code ?? (error instanceof Error ? error.message.slice(0, 120) : String(error))})`;
}
