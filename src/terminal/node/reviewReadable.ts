/**
 * What the review may read of what a followed chain names: only what the command could read itself. What a text
 * names becomes held names, so a file the review reads for the command and the command could not read would
 * answer its guesses through what is held (round 11's oracle; round 19b: another window folder's `.env`, a linked
 * home secret's real place). The sandbox of the launch says what it hides (bubblewrap.ts: the covered protected
 * files of every folder, the home secrets' real places, inside the workspace too, the emptied folders); the home
 * folder is hidden whole. A path is judged where it is spelled and where it leads (round 20b: the workspace's own
 * link `config/app.conf -> ../.env`, a dotfiles workspace's `kube` that `~/.kube` leads to): the review's read
 * follows the workspace's links as the command's would, so both places must be readable.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { protectingPattern } from '../../base/common';

export interface ReadableOptions {
  root: string;
  home: string;
  protectedPatterns: readonly string[];
  /** Absolute: what the launch's sandbox hides, each with all below it (inside the workspace too). */
  hidden?: readonly string[];
  /** Absolute: folders inside a hidden one that the sandbox shows again (the runtime folders it keeps). */
  shown?: readonly string[];
}

/** Why a place may not be read: a protected file of the workspace (names nothing that runs), or hidden by the sandbox. */
type Unreadable = 'protected' | 'hidden' | undefined;

/** Whether a sandboxed command could read `path` itself. */
export function commandCouldRead(path: string, options: ReadableOptions): boolean {
  return judged(path, options) === undefined;
}

/**
 * Among what the review may not read, whether a file there makes what runs unknown (the whole change set waits):
 * every such file but the workspace's protected ones (a protected file there names nothing that runs).
 */
export function unknownIfThere(path: string, options: ReadableOptions): boolean {
  return judged(path, options) === 'hidden';
}

/**
 * The spelled place and where it leads, each judged by the rules of where it is; the first that may not be read
 * says why. One realpath (and one of the root) per judged path: only the paths a chain follows are judged.
 */
function judged(path: string, options: ReadableOptions): Unreadable {
  const spelled = place(path, options);
  if (spelled) return spelled;
  const real = realPlace(path);
  // Something is there that cannot be resolved (a dangling link, a loop, a folder on the way that cannot be
  // looked at): where a read would arrive is unknown, so it is not read.
  if (real === 'unresolved') return protectedByName(path, options) ? 'protected' : 'hidden';
  // Nothing there: the workspace has no file to read (the command's own layer is read without following a link).
  if (real === undefined || real === path) return undefined;
  const realRoot = realPlace(options.root);
  const inRealRoot = typeof realRoot === 'string' ? relative(realRoot, real) : '..';
  // In the workspace: judged spelled from the root too (the covered places are spelled from it, or real).
  if (!isOutside(inRealRoot)) return place(join(options.root, inRealRoot), options) ?? insidePlace(real, inRealRoot, options);
  // It leaves the workspace: judged as a place outside it (the home folder also where it really is).
  const realHome = real === path ? undefined : realPlace(options.home);
  return outsidePlace(real, options) ?? (typeof realHome === 'string' && isInside(realHome, real) ? 'hidden' : undefined);
}

function place(path: string, options: ReadableOptions): Unreadable {
  const inside = relative(options.root, path);
  return isOutside(inside) ? outsidePlace(path, options) : insidePlace(path, inside, options);
}

/**
 * Inside the workspace: a protected file by its name there, or a place the sandbox covers inside it (a linked home
 * secret's real place); what hides a folder holding the workspace (the home folder, /tmp) does not hide it.
 */
function insidePlace(path: string, inside: string, options: ReadableOptions): Unreadable {
  if (protectingPattern(inside.split(sep).join('/'), options.protectedPatterns) !== undefined) return 'protected';
  const covers = (folder: string) => isAtOrBelow(path, folder) && !isAtOrBelow(options.root, folder);
  return hiddenBy(options, covers) ? 'hidden' : undefined;
}

/** Outside the workspace: in the home folder, under something the sandbox hides, or protected by its name wherever it is (a safety net). */
function outsidePlace(path: string, options: ReadableOptions): Unreadable {
  if (isInside(options.home, path) || hiddenBy(options, (folder) => isAtOrBelow(path, folder))) return 'hidden';
  return protectedAnywhere(path, options.protectedPatterns) ? 'hidden' : undefined;
}

function hiddenBy(options: ReadableOptions, covers: (folder: string) => boolean): boolean {
  return (options.hidden ?? []).some(covers) && !(options.shown ?? []).some(covers);
}

function protectedByName(path: string, options: ReadableOptions): boolean {
  const inside = relative(options.root, path);
  return !isOutside(inside) && protectingPattern(inside.split(sep).join('/'), options.protectedPatterns) !== undefined;
}

/** Where `path` really is; undefined when nothing is there, 'unresolved' when something is that cannot be resolved. */
function realPlace(path: string): string | 'unresolved' | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    try {
      return lstatSync(path, { throwIfNoEntry: false }) === undefined ? undefined : 'unresolved';
    } catch (error) {
      // A folder on the way that is a file: nothing there; one that cannot be looked at: unknown.
      return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? undefined : 'unresolved';
    }
  }
}

/** Whether a protected pattern matches `path` read from any of its folders (`/srv/other/.env`, `/data/keys/id.pem`). */
function protectedAnywhere(path: string, patterns: readonly string[]): boolean {
  const segments = path.split(sep).filter((segment) => segment !== '');
  for (let start = 0; start < segments.length; start++) {
    if (protectingPattern(segments.slice(start).join('/'), patterns) !== undefined) return true;
  }
  return false;
}

function isOutside(inside: string): boolean {
  return inside.startsWith('..') || isAbsolute(inside);
}

function isInside(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside !== '' && !isOutside(inside);
}

function isAtOrBelow(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return inside === '' || !isOutside(inside);
}
