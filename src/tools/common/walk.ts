/**
 * The recursive walk behind list_files and search_text. It goes through the
 * WorkspaceFiles port only, leaves out what the user's ignore rules hide and
 * what is protected, and does not follow symlinked folders (a link to an
 * ancestor would loop forever). The folder walked may itself be reached through
 * a symlink (`cfg -> config`): each entry is then checked for protection where
 * it really is as well (`config/secrets/**` hides `cfg/secrets/db.txt`).
 */
import type { Clock, DirectoryEntry } from '../../base/common';
import type { ToolContext } from './tool';
import { yieldToHost } from '../../base/common';
import { protectingPattern } from '../../base/common';

export interface WalkEntry {
  /** Workspace-relative. */
  path: string;
  type: 'file' | 'directory';
  /** A symlink inside the workspace; folders reached this way are listed but not entered. */
  symlink: boolean;
}

/** The most entries one walk visits, so a huge tree cannot stall a call. */
export const walkLimit = 50_000;
/** Entries admitted between two turns of the event loop. */
const entriesPerTurn = 100;
/** The longest one walk runs (without ripgrep, a large workspace takes seconds per search). */
export const walkTimeLimitMs = 20_000;

export interface WalkOptions {
  /** false when the user asked for an ignored folder by name: list it anyway. */
  respectIgnore: boolean;
  /** Called when the walk stops early, at `walkLimit` entries or after the time limit, with which. */
  onLimit?: (why: string) => void;
  /** The walk stops after `ms` on this clock. */
  timeLimit?: { clock: Clock; ms: number };
}

export async function* walkWorkspace(folder: string, ctx: ToolContext, signal: AbortSignal, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const realFolder = await ctx.files.realPathInside(folder, signal);
  if (realFolder === undefined) return;
  const realPathOf = (path: string) => reanchor(path, folder, realFolder);
  const ignoredInWalk = options.respectIgnore ? ctx.files.ignoredInWalk?.(signal) : undefined;
  const ignored = (path: string, type: DirectoryEntry['type']) =>
    // A symlink's kind is its target's: isIgnored looks it up.
    ignoredInWalk && type !== 'symlink' ? ignoredInWalk(path, type === 'directory') : ctx.files.isIgnored(path, signal);
  let visited = 0;
  const pending = [folder];
  const deadline = options.timeLimit && options.timeLimit.clock.now() + options.timeLimit.ms;
  // Depth-first and sorted, so a folder's contents follow it as in a tree.
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries = [...(await ctx.files.list(dir, signal))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: string[] = [];
    for (const entry of entries) {
      signal.throwIfAborted();
      if (++visited > walkLimit) {
        options.onLimit?.(`more than ${walkLimit.toLocaleString('en-US')} entries`);
        return;
      }
      if (deadline !== undefined && options.timeLimit!.clock.now() > deadline) {
        options.onLimit?.(`more than ${options.timeLimit!.ms / 1000} s`);
        return;
      }
      // A folder's entries are admitted without I/O (its subfolders, a search's files that cannot match): a
      // turn of the event loop every so many, so a folder of thousands is not one block of the extension host.
      if (visited % entriesPerTurn === 0) await yieldToHost();
      const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      const resolved = await admit(path, realPathOf(path), entry.type, ctx, signal, options.respectIgnore ? ignored : undefined);
      if (resolved === undefined) continue;
      yield resolved;
      if (resolved.type === 'directory' && !resolved.symlink) subfolders.push(path);
    }
    pending.push(...subfolders.reverse());
  }
}

/**
 * `path` (inside `folder`) moved under `realFolder`, where the walked folder
 * really is. Exact because the walk enters no symlinked folder below `folder`.
 */
function reanchor(path: string, folder: string, realFolder: string): string {
  if (folder === realFolder) return path;
  const inside = folder === '.' ? path : path.slice(folder.length + 1);
  return realFolder === '.' ? inside : `${realFolder}/${inside}`;
}

async function admit(
  path: string,
  realPath: string,
  type: DirectoryEntry['type'],
  ctx: ToolContext,
  signal: AbortSignal,
  /** Absent when the ignore rules do not apply. */
  ignored: ((path: string, type: DirectoryEntry['type']) => Promise<boolean>) | undefined,
): Promise<WalkEntry | undefined> {
  if (type === 'other') return undefined;
  if (isProtected(path, ctx) || isProtected(realPath, ctx)) return undefined;
  if (ignored && (await ignored(path, type))) return undefined;
  if (type !== 'symlink') return { path, type, symlink: false };
  const real = await ctx.files.realPathInside(path, signal);
  if (real === undefined || isProtected(real, ctx)) return undefined;
  const stat = await ctx.files.stat(path, signal);
  return stat ? { path, type: stat.type, symlink: true } : undefined;
}

function isProtected(path: string, ctx: ToolContext): boolean {
  return protectingPattern(path, ctx.protectedFiles) !== undefined;
}
