/**
 * The change set of one sandboxed command as the review reads it (changeLayer.ts): only the layer's `upper` folder,
 * never a walk of the workspace. Read with synchronous system calls (a few microseconds each, where an awaited one
 * costs ten times that), the host given its turn every SLICE entries.
 */
import { closeSync, lstatSync, opendirSync, type Dir, type Stats } from 'node:fs';
import { join } from 'node:path';
import { yieldToHost } from '../../base/common';
import type { ChangedEntry } from '../common/changeReview';
import { shownPath } from '../common/controlPaths';
import { isAgentConfigCandidate, namesProgramsAt } from './agentConfigs';
import { removalOf } from './folderRemoval';
import { startsAsGitLink } from './gitStructure';
import { opaqueFolders } from './overlayMarks';
import { hookSettingsChanged, scriptsChanged } from './packageHooks';
import { openBeneathSync } from './pinnedPaths';

/** Entries looked at between two turns given to the host. */
const SLICE = 256;

/** What the reading needs of the layer. */
export interface LayerToRead {
  upper: string;
  /** The workspace's real path (the lower layer). */
  root: string;
  limits: { maxEntries: number; maxBytes: number; timeLimitMs: number; maxRemovalEntries: number };
  now: () => number;
  /** When the command could start writing. */
  startedAt: number;
  /** Whether the workspace's entry at `path` changed after the command started, by another hand than the layer's. */
  changedOutside: (path: string, there: Stats) => boolean;
}

export interface ChangeSetRead {
  entries: ChangedEntry[];
  /** Set when a bound was passed: which one (everything then waits for the user). */
  incomplete?: string;
}

/**
 * Reads the change set: every entry of the layer's `upper` folder, each folder reached one name at a time without
 * following a link, with what the workspace has at its path. Past a bound (entries, bytes, time, a name that is not
 * UTF-8, a folder that cannot be read) it stops and says which: the whole change set then waits for the user.
 */
export async function readChangeSet(layer: LayerToRead, bounds: { deadline: number; signal: AbortSignal }): Promise<ChangeSetRead> {
  const { deadline, signal } = bounds;
  const limits = layer.limits;
  const entries: ChangedEntry[] = [];
  const sharedDirectories: string[] = [];
  let bytes = 0;
  const pending = [''];
  // The reads below are synchronous: a review of a few entries would otherwise run start to end in microtasks, and a
  // caller that reviews in a loop while a command runs (a background command's output read again and again) would
  // never let the host see the command end.
  await yieldToHost();
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    // The folder reached one name at a time without following a link, and everything in it looked at through
    // that handle: a running command that swaps a folder of its layer for a link to the user's folders gets
    // no name from there into the review (round 9).
    // Synchronous opens and reads, the host given its turn every SLICE entries: awaited ones cost a thread-pool
    // round trip each (10,000 planted folders took most of the review's 20 s that way on 2 busy cores).
    const failure: { code?: string } = {};
    const descriptor = openBeneathSync(layer.upper, folder, failure);
    // A folder the host cannot open (its owner's read or search taken away): what is in it is unknown.
    if (descriptor === undefined && failure.code !== undefined && !GONE.has(failure.code)) return { entries, incomplete: unreadable(folder, failure.code) };
    if (descriptor === undefined) continue;
    const pinned = `/proc/self/fd/${descriptor}`;
    let listing: Dir | undefined;
    try {
      // Read as a stream, the bounds checked at each name: a folder of millions of names is never listed whole.
      listing = listingOf(pinned, failure);
      if (!listing && failure.code !== undefined && !GONE.has(failure.code)) return { entries, incomplete: unreadable(folder, failure.code) };
      for (let dirent = listing?.readSync(); dirent; dirent = listing?.readSync()) {
        const { name } = dirent;
        signal.throwIfAborted();
        const path = folder === '' ? name : `${folder}/${name}`;
        if (entries.length >= limits.maxEntries) {
          return { entries, incomplete: `the command changed more than ${limits.maxEntries} files` };
        }
        // Node reads a name that is not UTF-8 with U+FFFD in its place: it can be neither judged nor landed by that name.
        if (name.includes('\uFFFD')) {
          return { entries, incomplete: `the command made a name that is not UTF-8 (${JSON.stringify(path)})` };
        }
        if (layer.now() > deadline) {
          return { entries, incomplete: `reading what the command changed took more than ${limits.timeLimitMs / 1000} s` };
        }
        // Looked at with synchronous system calls (a few microseconds each, where an awaited one costs ten times
        // that), the host given its turn every SLICE entries so that no stretch blocks it for long.
        if (entries.length % SLICE === SLICE - 1) await yieldToHost();
        let entry: (ChangedEntry & { size?: number }) | undefined;
        try {
          entry = await entryOf(layer, path, `${pinned}/${name}`);
        } catch (error) {
          // The workspace's entry cannot be looked at (a folder on its way unreadable to the host): unknown.
          const code = (error as NodeJS.ErrnoException).code;
          if (code === undefined) throw error;
          return { entries, incomplete: unreadable(path, code) };
        }
        if (!entry) continue;
        entries.push(entry);
        bytes += entry.size ?? 0;
        if (bytes > limits.maxBytes) {
          return { entries, incomplete: `the command wrote more than ${Math.round(limits.maxBytes / 1024 ** 2)} MB` };
        }
        if (entry.kind === 'directory') {
          pending.push(path);
          if (entry.existed) sharedDirectories.push(path);
        }
      }
    } finally {
      listing?.closeSync();
      closeSync(descriptor);
    }
  }
  const opaque = await opaqueFolders(layer.upper, sharedDirectories, signal);
  for (const entry of entries) if (entry.kind === 'directory' && entry.existed && opaque.has(entry.path)) entry.opaque = entry.removesFolder = true;
  // Every entry whose landing removes a workspace folder, whatever its own kind, is judged by what that folder holds.
  for (const entry of entries) {
    if (!entry.removesFolder) continue;
    const look = { folder: join(layer.root, entry.path), startedAt: layer.startedAt, maxEntries: limits.maxRemovalEntries };
    const removal = await removalOf({ ...look, deadline, now: layer.now, signal });
    entry.removesRepository = removal.repository;
    entry.changedOutside ||= removal.changedOutside;
  }
  return { entries };
}

/** One upper entry, with what the workspace has at its path (and, for a file, its size). */
async function entryOf(layer: LayerToRead, path: string, upperPath: string): Promise<(ChangedEntry & { size?: number }) | undefined> {
  const upper = lstatSync(upperPath, { throwIfNoEntry: false });
  if (!upper) return undefined;
  const lower = lstatSync(join(layer.root, path), { throwIfNoEntry: false });
  const kind =
    upper.isCharacterDevice() && upper.rdev === 0
      ? 'deleted'
      : upper.isDirectory()
        ? 'directory'
        : upper.isSymbolicLink()
          ? 'symlink'
          : upper.isFile()
            ? 'file'
            : 'special';
  const entry: ChangedEntry & { size?: number } = { path, kind, mode: upper.mode & 0o7777, existed: lower !== undefined };
  // Judged by what the workspace has at the path: anything but a folder put where a folder was removes that folder.
  if (kind !== 'directory' && lower?.isDirectory()) entry.removesFolder = true;
  if (kind === 'directory') {
    // A folder copied up around a change existed as a folder; one that replaced a file did not, and that file
    // is judged as a file's change would be (the user may have saved it while the command ran: round 17).
    entry.existed = lower?.isDirectory() ?? false;
    if (lower && !entry.existed) entry.changedOutside = layer.changedOutside(path, lower);
    return entry;
  }
  if (lower) {
    entry.wasExecutable = lower.isFile() && (lower.mode & 0o111) !== 0;
    entry.changedOutside = layer.changedOutside(path, lower);
  }
  if (kind === 'file') {
    entry.hardLinked = upper.nlink > 1;
    entry.size = upper.size;
    entry.gitLink = startsAsGitLink(upperPath, upper.size);
    if (path === 'package.json' || path.endsWith('/package.json')) {
      entry.hookSettingsChanged = await hookSettingsChanged(upperPath, join(layer.root, path));
      entry.scriptsChanged = await scriptsChanged(upperPath, join(layer.root, path));
    }
    // An agent's config whatever its name: its hooks or servers at its top (agentConfigs.ts).
    if (isAgentConfigCandidate(path)) entry.namesPrograms = namesProgramsAt(upperPath, path);
  }
  return entry;
}

/** A folder's listing, read 256 names at a time; undefined when it cannot be listed (`failure` gets the error's code). */
function listingOf(path: string, failure: { code?: string }): Dir | undefined {
  try {
    return opendirSync(path, { bufferSize: 256 });
  } catch (error) {
    failure.code = (error as NodeJS.ErrnoException).code;
    return undefined;
  }
}

/** Errors that say a folder of the layer is gone or was swapped for something else while the command ran. */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

function unreadable(folder: string, code: string): string {
  return `the review could not read ${shownPath(folder || '.')} in what the command changed (${code})`;
}
