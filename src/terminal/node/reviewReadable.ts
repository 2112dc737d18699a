/**
 * What the review may read of what a followed chain names: only what the command could read itself. What a text
 * names becomes held names, so a file the review reads for the command and the command could not read would
 * answer its guesses through what is held (round 11's oracle; round 19b: another window folder's `.env`, a linked
 * home secret's real place). The sandbox of the launch says what it hides (bubblewrap.ts: the covered protected
 * files of every folder, the home secrets' real places, the emptied folders); the home folder is hidden whole.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { protectingPattern } from '../../base/common';

export interface ReadableOptions {
  root: string;
  home: string;
  protectedPatterns: readonly string[];
  /** Absolute: what the launch's sandbox hides, each with all below it. */
  hidden?: readonly string[];
  /** Absolute: folders inside a hidden one that the sandbox shows again (the runtime folders it keeps). */
  shown?: readonly string[];
}

/** Whether a sandboxed command could read `path` itself. */
export function commandCouldRead(path: string, options: ReadableOptions): boolean {
  const inside = relative(options.root, path);
  if (!isOutside(inside)) return protectingPattern(inside.split(sep).join('/'), options.protectedPatterns) === undefined;
  return !isInside(options.home, path) && !hiddenOutside(path, options);
}

/**
 * Among what the review may not read, whether a file there makes what runs unknown (the whole change set waits):
 * every such file but the workspace's protected ones (a protected file there names nothing that runs).
 */
export function unknownIfThere(path: string, options: ReadableOptions): boolean {
  if (!isOutside(relative(options.root, path))) return false;
  return isInside(options.home, path) || hiddenOutside(path, options);
}

/** Outside the workspace: under something the sandbox hides, or protected by its name wherever it is (a safety net). */
function hiddenOutside(path: string, options: ReadableOptions): boolean {
  const hidden = (options.hidden ?? []).some((folder) => isAtOrBelow(path, folder)) && !(options.shown ?? []).some((folder) => isAtOrBelow(path, folder));
  return hidden || protectedAnywhere(path, options.protectedPatterns);
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
