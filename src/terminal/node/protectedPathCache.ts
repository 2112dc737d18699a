/**
 * The workspace's protected files (covered in the sandbox), found without a
 * walk of the whole workspace before every command. The first command walks;
 * each folder's record keeps its identity and modification time, the protected
 * entries in it and its subfolders. A later command looks at each folder once
 * (one lstat): a folder whose time and identity are unchanged has the same
 * names, so its record stands; only a changed folder is read again. A name can
 * only appear in a folder by changing that folder's time, so nothing is missed
 * that the walk would have found (a rename into a folder, a link, a new file).
 * Symbolic links are never followed; `.git` is neither entered nor covered
 * (Git must read it; what a command changes there is held by the review).
 */
import { lstatSync, statfsSync, type Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { protectingPatternOfEntry } from '../../base/common';
import { isEditorOrAgentPath, isReviewedConfig } from '../common/changeReview';
import { configsBehindLink } from './linkedConfigFolders';

/** Entries looked at outside node_modules; beyond it the sandbox cannot promise to cover the protected files. */
export const protectedSearchLimit = 100_000;
/** The longest a first walk may take. */
export const protectedWalkTimeLimitMs = 20_000;

const dependencyFolder = 'node_modules';

/** A workspace the walk could not finish within its limits; the message says which. */
export class WorkspaceTooLarge extends Error {}

/**
 * A name in the workspace that is not UTF-8: the walk cannot look into it (Node reads it with U+FFFD in place of
 * its bytes) nor can bwrap be told its path, so the protected files under it could not be covered: commands do not run.
 */
export class UnreadableName extends Error {}

/**
 * A folder of the workspace the host cannot list (EACCES, EPERM, EIO…): the protected files in it could not be
 * found, so they could not be covered: commands do not run (round 12: `chmod 0 config` uncovered config/.env).
 */
export class UnreadableFolder extends UnreadableName {}

/** What a look at the workspace found (paths workspace-relative, '' the root). */
export interface WorkspaceLook {
  hidden: HiddenPath[];
  /** Folders that hold a `.git`. */
  repositories: string[];
  /** Folders that are git directories by Git's rules (bare repositories, whatever their names). */
  gitDirectories: string[];
  /** `.envrc` files, `.husky` folders and hook managers' configs. */
  runnerConfigs: string[];
}

export interface HiddenPath {
  path: string;
  directory: boolean;
}

/** A folder's identity and times, as numbers: compared at every look of every folder, so no string is built. */
interface FolderStamp {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.ctimeMs === b.ctimeMs && a.dev === b.dev;
}

interface FolderRecord {
  /** Device, inode and modification time when read: unchanged means the same names. */
  stamp: FolderStamp;
  /** Its entries: a protected one covered, every other folder to look in. */
  hidden: HiddenPath[];
  folders: string[];
  entries: number;
  /** It holds a `.git` (a repository's work tree): the review reads that repository's config. */
  repository: boolean;
  /** It is a git directory by Git's rules (HEAD, and objects+refs or commondir), whatever it is called: a bare repository. */
  gitDirectory: boolean;
  /** Its entries whose text names files run outside the sandbox (`.envrc`, `.husky`, hook managers' configs). */
  runners: string[];
  /** Its entries that are links named as an editor's or agent's folder (`.vscode -> config/vscode`): listed at each walk. */
  linkedConfigFolders: string[];
  /**
   * Its time was safely in the past when it was read: a later change cannot carry the same time. Otherwise it is
   * read once more at the next look (not at every look for a while: agents run commands seconds apart).
   */
  settled: boolean;
}

/**
 * Filesystems that stamp times from the kernel's clock, to the nanosecond, a tick (≤ 10 ms) at worst behind
 * (statfs magic numbers): ext2/3/4, XFS, Btrfs, tmpfs, overlayfs, F2FS, ZFS, bcachefs. Others (FAT's 2 s,
 * network filesystems stamped by another machine's clock) keep the wide margin.
 */
const KERNEL_CLOCK_FILESYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0xf2f52010, 0x2fc12fc1, 0xca451a4e]);
/** How far a folder's time must lie before its read for the read to stand: a few ticks on those, else 2 s. */
const FINE_MARGIN_MS = 50;
const COARSE_MARGIN_MS = 2000;

export class ProtectedPathCache {
  /** Per workspace and list of patterns: the records of its folders, workspace-relative ('' the root). */
  private readonly workspaces = new Map<string, Map<string, FolderRecord>>();
  /** Per device: whether its filesystem stamps times from the kernel's clock (one statfs a device). */
  private readonly kernelClock = new Map<number, boolean>();

  constructor(
    private readonly options: {
      now?: () => number;
      maxWorkspaces?: number;
      /** Reads one folder; default fs's readdir (a test counts the reads through it). */
      readFolder?: (path: string) => Promise<Dirent[]>;
    } = {},
  ) {}

  /** The protected files and folders of `root` (a real path) as they are now. Throws WorkspaceTooLarge past the limits. */
  async hiddenIn(root: string, patterns: readonly string[], signal: AbortSignal): Promise<HiddenPath[]> {
    return (await this.look(root, patterns, signal)).hidden;
  }

  /** As hiddenIn, and the folders (workspace-relative, '' the root) that hold a `.git`, outside node_modules. */
  async look(root: string, patterns: readonly string[], signal: AbortSignal): Promise<WorkspaceLook> {
    const key = `${root}\0${JSON.stringify(patterns)}`;
    let records = this.workspaces.get(key);
    if (!records) {
      records = new Map();
      this.workspaces.set(key, records);
      // A bounded number of workspaces' records: a window has a handful of folders.
      const excess = this.workspaces.size - (this.options.maxWorkspaces ?? 8);
      for (const old of [...this.workspaces.keys()].slice(0, Math.max(0, excess))) this.workspaces.delete(old);
    }
    const now = this.options.now ?? Date.now;
    const deadline = now() + protectedWalkTimeLimitMs;
    const hidden: HiddenPath[] = [];
    const repositories: string[] = [];
    const gitDirectories: string[] = [];
    const runnerConfigs: string[] = [];
    const visited = new Set<string>();
    let counted = 0;
    const pending = [''];
    while (pending.length > 0) {
      if (signal.aborted) signal.throwIfAborted();
      if (counted % 64 === 0 && now() > deadline)
        throw new WorkspaceTooLarge(`looking for the workspace's protected files took more than ${protectedWalkTimeLimitMs / 1000} s`);
      const folder = pending.pop() as string;
      visited.add(folder);
      const found = this.current(root, folder, records, patterns);
      const record = found instanceof Promise ? await found : found;
      if (!record) continue;
      counted += record.entries;
      if (counted > protectedSearchLimit) {
        throw new WorkspaceTooLarge(`the workspace holds more than ${protectedSearchLimit} files, too many to find its protected ones`);
      }
      hidden.push(...record.hidden);
      if (record.repository) repositories.push(folder);
      if (record.gitDirectory) gitDirectories.push(folder);
      runnerConfigs.push(...record.runners);
      for (const linked of record.linkedConfigFolders) {
        const behind = await configsBehindLink(root, linked);
        counted += behind.entries;
        runnerConfigs.push(...behind.configs);
      }
      pending.push(...record.folders);
    }
    // Folders that are gone take their records with them.
    for (const folder of records.keys()) if (!visited.has(folder)) records.delete(folder);
    return { hidden, repositories, gitDirectories, runnerConfigs };
  }

  /** The folder's record, read again only when its stamp changed; undefined when it is no longer a folder. */
  private current(
    root: string,
    folder: string,
    records: Map<string, FolderRecord>,
    patterns: readonly string[],
  ): FolderRecord | undefined | Promise<FolderRecord> {
    // Folders come from the walk's own listings (names, joined by '/'), so a plain join is the path; path.join's
    // normalising was a third of a look's time on 400 folders.
    const absolute = folder === '' ? root : `${root}/${folder}`;
    // One system call a folder, made synchronously and without a promise when nothing changed: a few
    // microseconds each, where an awaited one costs ten times that (measured: 400 folders in 30 ms awaited, 2 ms not).
    const info = lstatSync(absolute, { throwIfNoEntry: false });
    if (!info?.isDirectory()) {
      records.delete(folder);
      return undefined;
    }
    const stamp: FolderStamp = { dev: info.dev, ino: info.ino, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
    const known = records.get(folder);
    // A folder read within a tick of its last change may change again without a new time: such a read does not
    // stand, and the folder is read again (see FolderRecord.settled).
    if (known?.settled && sameStamp(known.stamp, stamp)) return known;
    const readAt = (this.options.now ?? Date.now)();
    const margin = this.finelyStamped(absolute, info.dev, info.mtimeMs) ? FINE_MARGIN_MS : COARSE_MARGIN_MS;
    return this.read(absolute, folder, { stamp, settled: info.mtimeMs < readAt - margin }, patterns).then((record) => {
      records.set(folder, record);
      return record;
    });
  }

  /** Its times come from the kernel's clock to below the second: its filesystem is one of those, and this time has a fraction. */
  private finelyStamped(absolute: string, device: number, mtimeMs: number): boolean {
    let kernelClock = this.kernelClock.get(device);
    if (kernelClock === undefined) {
      kernelClock = KERNEL_CLOCK_FILESYSTEMS.has(Number(statfsTypeOf(absolute)));
      if (this.kernelClock.size < 64) this.kernelClock.set(device, kernelClock);
    }
    // A whole second (ext3's small inodes, or a time set by hand) says nothing about the clock's grain.
    return kernelClock && mtimeMs % 1000 !== 0;
  }

  private async read(absolute: string, folder: string, when: { stamp: FolderStamp; settled: boolean }, patterns: readonly string[]): Promise<FolderRecord> {
    const record: FolderRecord = { ...when, hidden: [], folders: [], entries: 0, repository: false, gitDirectory: false, runners: [], linkedConfigFolders: [] };
    const entries = await (this.options.readFolder ?? ((path: string) => readdir(path, { withFileTypes: true })))(absolute).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      // Gone since its lstat: nothing there to cover.
      if (code === 'ENOENT' || code === 'ENOTDIR') return [] as Dirent[];
      throw new UnreadableFolder(
        `the workspace's folder ${JSON.stringify(folder || '.')} cannot be listed (${code ?? String(error)}), so the sandbox cannot cover the protected files in it; give it back its read and search rights (chmod u+rx) to run commands in the sandbox`,
      );
    });
    record.entries = entries.length;
    record.gitDirectory = isGitDirectoryListing(entries);
    for (const entry of entries) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      // Any U+FFFD refuses: a name whose bytes are not UTF-8 reads as one, and a decoy beside it spelled with a real
      // U+FFFD would answer a lookup in its place (round 7), so the lookup cannot tell them apart.
      if (entry.name.includes('\uFFFD')) {
        throw new UnreadableName(
          `the workspace has a name that is not UTF-8 (${JSON.stringify(relative)}), so the sandbox cannot cover the protected files under it; rename it to run commands in the sandbox`,
        );
      }
      if (entry.name.toLowerCase() === '.git') {
        record.repository = true;
        continue;
      }
      if (isReviewedConfig(relative, entry.isDirectory())) record.runners.push(relative);
      if (entry.isSymbolicLink() && isEditorOrAgentPath(relative)) record.linkedConfigFolders.push(relative);
      // Its folders were checked as the walk came to them (a protected one is covered whole, never entered).
      if (protectingPatternOfEntry(relative, patterns) !== undefined) {
        const covered = await coverOf(join(absolute, entry.name), entry.isSymbolicLink(), entry.isDirectory());
        if (covered) record.hidden.push(covered);
        continue;
      }
      // Protected files are not looked for among the dependencies (as before: hundreds of thousands of files).
      if (entry.isDirectory() && entry.name !== dependencyFolder) record.folders.push(relative);
    }
    return record;
  }
}

/** Whether a folder's entries make it a git directory by Git's rules: a HEAD that is not a folder, and objects and refs folders or a commondir. */
function isGitDirectoryListing(entries: readonly Dirent[]): boolean {
  const kinds = new Map(entries.map((entry) => [entry.name, entry]));
  const head = kinds.get('HEAD');
  if (!head || head.isDirectory()) return false;
  if (kinds.has('commondir')) return true;
  return (kinds.get('objects')?.isDirectory() ?? false) && (kinds.get('refs')?.isDirectory() ?? false);
}

/** The filesystem's statfs magic number; undefined where there is none to ask (not Linux, or gone). */
function statfsTypeOf(path: string): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return statfsSync(path).type;
  } catch {
    return undefined;
  }
}

/** A protected entry as bwrap covers it: a link where it leads, a dangling one not at all (bwrap could not mount on it). */
async function coverOf(absolute: string, isLink: boolean, directory: boolean): Promise<HiddenPath | undefined> {
  if (!isLink) return { path: absolute, directory };
  const target = await stat(absolute).catch(() => undefined);
  return target ? { path: absolute, directory: target.isDirectory() } : undefined;
}
