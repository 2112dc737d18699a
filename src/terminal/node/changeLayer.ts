/**
 * One sandboxed command's copy-on-write layer over the workspace. The sandbox
 * mounts overlayfs with the workspace as its read-only lower layer and this
 * layer's `upper` folder as the place every write goes (copy-up, whiteouts for
 * deletions, hard links: all in `upper`, the workspace untouched while the
 * command runs). When it ends, only `upper` is read (the change set: no walk
 * of the workspace), judged (src/terminal/common/changeReview.ts), and what
 * may land is moved into the workspace through folders opened without
 * following links and checked to be where they should be; what is held stays
 * in `upper` until the user applies or discards it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  describeHold,
  holdReason,
  isAtOrBelow,
  judgeChanges,
  type ChangedEntry,
  type ChangeVerdict,
  type HeldEntry,
  type RepositoryFacts,
} from '../common/changeReview';
import type { ControlPathKind, ControlRollback, MovedControlPath } from '../common/controlPaths';
import { shownPath } from '../common/controlPaths';
import type { QuarantinedControlPaths } from '../common/commandPorts';
import { isGitDirectory } from './gitStructure';
import { removeTree } from './sandboxFolders';
import { treeStamp } from './folderRemoval';
import { moveInto, openBeneath, withPinnedFolder } from './pinnedPaths';
import { hookSettingsOf, scriptsOf, workspaceHookSettings, workspaceScripts } from './packageHooks';
import { repositoryFacts, type KnownStructure } from './repositoryFacts';
import { readChangeSet } from './changeSetReader';
import { isAgentConfigCandidate, namesProgramsIn } from './agentConfigs';

export type { KnownStructure } from './repositoryFacts';

/** Bounds of one review: past any of them nothing lands on its own, the whole change set waits for the user. */
export interface ChangeLimits {
  /** Entries in the change set. Default 100,000. */
  maxEntries: number;
  /** Bytes of files in the change set. Default 4 GiB. */
  maxBytes: number;
  /** Wall-clock time to read and judge it. Default 20 s. */
  timeLimitMs: number;
  /** Entries looked through in a folder a deletion would remove. Default 20,000. */
  maxRemovalEntries: number;
}

/** A file copied in while the command runs is at most this large; a larger one lands at the end. */
const INTERIM_COPY_BYTES = 16 * 1024 * 1024;

export const defaultChangeLimits: ChangeLimits = { maxEntries: 100_000, maxBytes: 4 * 1024 ** 3, timeLimitMs: 20_000, maxRemovalEntries: 20_000 };

export interface ChangeLayerOptions {
  /** The workspace's real path (the lower layer). */
  root: string;
  /** The layer's own folder, outside the workspace (it holds upper, work, merged, lower). */
  folder: string;
  protectedPatterns: readonly string[];
  /** The user's home folder: `~/` in a Git config. */
  home: string;
  limits?: Partial<ChangeLimits>;
  /** Wall-clock milliseconds; Date.now when absent. */
  now?: () => number;
}

/** What one review found and did. */
export interface ChangeReviewResult {
  landed: number;
  held: HeldEntry[];
  failed: { path: string; reason: string }[];
  /** Set when the change set was past a bound: it says which, and everything was held. */
  incomplete?: string;
}

export class ChangeLayer {
  readonly upper: string;
  readonly work: string;
  readonly merged: string;
  readonly lower: string;
  private readonly limits: ChangeLimits;
  private readonly now: () => number;
  /** When the command could start writing: a workspace entry changed later was changed by someone else. */
  private startedAt = 0;
  /** What the look before the command found: the repositories, bare git directories and runner configs of the workspace. */
  private known: KnownStructure = { repositories: [], gitDirectories: [], runnerConfigs: [] };
  /** The workspace's entry at each held path when the final review ended (identity and change time; '' for none). */
  private readonly stampsAtReview = new Map<string, string>();
  /** Everything the last review read, for applying a held path later. */
  private entries: ChangedEntry[] = [];
  /** Files an interim review copied in: the upper file's time and size then, and the workspace copy's change time. */
  private readonly copiedIn = new Map<string, { mtimeMs: number; size: number; ctimeMs: number }>();
  /** Held paths already told of (an interim review tells only what is new). */
  private readonly told = new Set<string>();

  private constructor(readonly options: ChangeLayerOptions) {
    this.upper = join(options.folder, 'upper');
    this.work = join(options.folder, 'work');
    this.merged = join(options.folder, 'merged');
    this.lower = join(options.folder, 'lower');
    this.limits = { ...defaultChangeLimits, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  /** A new, empty layer in `options.folder` (made here, 0700). */
  static async open(options: ChangeLayerOptions): Promise<ChangeLayer> {
    const layer = new ChangeLayer(options);
    // Synchronous: five folders at every command, a few µs each, where five awaited ones cost a millisecond or more
    // on a busy host (issue 36's per-command target).
    mkdirSync(options.folder, { recursive: true, mode: 0o700 });
    for (const folder of [layer.upper, layer.work, layer.merged, layer.lower]) mkdirSync(folder, { mode: 0o700 });
    // The kernel stamps file times from a clock that lags the real one by a tick at most, so a change made
    // before this moment never carries a later time: no margin, or a file the previous command landed a
    // moment ago would read as changed by someone else.
    layer.startedAt = layer.now();
    return layer;
  }

  /**
   * Reads the change set, judges it, lands what may land; the rest stays held here. `interim`: the command
   * still runs (its overlay is mounted), so files are copied in rather than moved, deletions wait for the end,
   * and only what is newly held is told. `holdAll`: why nothing may land unasked (the command may still run), as
   * for a change set past a bound.
   */
  async review(signal: AbortSignal, interim = false, holdAll?: string): Promise<ChangeReviewResult> {
    const deadline = this.now() + this.limits.timeLimitMs;
    const read = await readChangeSet(
      {
        upper: this.upper,
        root: this.options.root,
        limits: this.limits,
        now: this.now,
        startedAt: this.startedAt,
        changedOutside: (path, there) => this.changedOutside(path, there),
      },
      { deadline, signal },
    );
    if (holdAll !== undefined) read.incomplete ??= holdAll;
    this.entries = read.entries;
    // Nothing changed (most commands that only read): nothing to judge, no repository to look at.
    const facts =
      read.incomplete || read.entries.length === 0
        ? { gitDirectories: new Set<string>(), pointedAt: [] }
        : await repositoryFacts({
            root: this.options.root,
            upper: this.upper,
            home: this.options.home,
            known: this.known,
            protectedPatterns: this.options.protectedPatterns,
            entries: read.entries,
            signal,
          });
    // What the repositories point at could not all be known (too many of them, a config too large): nothing lands unasked.
    read.incomplete ??= facts.incomplete;
    const verdict = judgeChanges(read.entries, facts, { protectedPatterns: this.options.protectedPatterns, incomplete: read.incomplete !== undefined });
    const failed = interim ? await this.copyIn(verdict, facts, signal) : await this.land(verdict, signal);
    // What the workspace has where something is held: an Apply later never overwrites a path that changed since.
    if (!interim) for (const entry of this.entries) this.stampsAtReview.set(entry.path, await this.workspaceStamp(entry));
    const held = interim ? verdict.held.filter((entry) => !this.told.has(entry.entry.path)) : verdict.held;
    for (const entry of verdict.held) this.told.add(entry.entry.path);
    return { landed: verdict.land.length - failed.length, held, failed, ...(read.incomplete ? { incomplete: read.incomplete } : {}) };
  }

  /**
   * An interim landing, while the command can still change its layer under the review: only files, only into
   * folders the workspace already has (no folder is made: a repository's layout cannot be built up piece by
   * piece), each copied from a descriptor opened without following a link or waiting on a pipe and checked
   * there by every rule of the final review (holdReason on the handle's fstat and the bytes read) and bounded in
   * size, then written with a mode of this layer's choosing (copyMode), so what lands is what was checked whatever
   * the command swaps in meanwhile. A folder that turns out to be a git directory afterwards gets back what was put
   * in it. The rest waits for the end.
   */
  private async copyIn(verdict: ChangeVerdict, facts: RepositoryFacts, signal: AbortSignal): Promise<{ path: string; reason: string }[]> {
    const failed: { path: string; reason: string }[] = [];
    const landedIn = new Map<string, string[]>();
    for (const entry of verdict.land) {
      signal.throwIfAborted();
      if (entry.kind !== 'file') continue;
      try {
        if (await this.copyChecked(entry, facts)) {
          const parent = entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/')) : '';
          landedIn.set(parent, [...(landedIn.get(parent) ?? []), entry.path]);
        }
      } catch (error) {
        failed.push({ path: entry.path, reason: reasonOf(error) });
      }
    }
    for (const [parent, paths] of landedIn) {
      if (!(await this.insideGitDirectory(parent))) continue;
      for (const path of paths) {
        await rm(join(this.options.root, path), { force: true });
        this.copiedIn.delete(path);
      }
    }
    return failed;
  }

  /** Whether the workspace folder `path` or a folder above it (inside the workspace) is a git directory now. */
  private async insideGitDirectory(path: string): Promise<boolean> {
    for (let folder = path; ; folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '') {
      if (await isGitDirectory(folder === '' ? this.options.root : join(this.options.root, folder)).catch(() => true)) return true;
      if (folder === '') return false;
    }
  }

  /** One file copied in during the command (see copyIn); false when it was left for the end. */
  private async copyChecked(entry: ChangedEntry, facts: RepositoryFacts): Promise<boolean> {
    const slash = entry.path.lastIndexOf('/');
    const parent = slash < 0 ? '' : entry.path.slice(0, slash);
    const name = entry.path.slice(slash + 1);
    const handle = await openBeneath(this.upper, entry.path).catch(() => undefined);
    if (!handle) return false;
    try {
      const info = await handle.stat();
      const copied = this.copiedIn.get(entry.path);
      if (copied && copied.mtimeMs === info.mtimeMs && copied.size === info.size) return false;
      if (!info.isFile() || info.size > INTERIM_COPY_BYTES) return false;
      const content = Buffer.alloc(info.size);
      const { bytesRead } = await handle.read(content, 0, info.size, 0);
      // Judged again by every rule of the final review, on what this copy is: the handle's fstat (the review's lstat
      // saw the name a moment earlier, and the command may have changed its bits since: round 3, round 17) and the
      // bytes read. Not just a list of the bits a past attack used: a rule added to the review applies here too.
      if (holdReason(copiedEntry(entry, info, content), facts, this.options.protectedPatterns) !== undefined) return false;
      // A package.json is judged again on the very bytes copied: the command may have swapped it since the review read it.
      if (name === 'package.json') {
        const text = content.subarray(0, bytesRead).toString('utf8');
        if (hookSettingsOf(text) !== (await workspaceHookSettings(join(this.options.root, entry.path)))) return false;
        // Its scripts too (a hook may run them): a package.json whose scripts changed waits for the end's review.
        if (scriptsOf(text) !== (await workspaceScripts(join(this.options.root, entry.path)))) return false;
      }
      // An agent's config by its shape, judged again on these bytes too: it waits for the end's review.
      if (isAgentConfigCandidate(entry.path) && namesProgramsIn(content.subarray(0, bytesRead), info.size, entry.path)) return false;
      return await withPinnedFolder(this.options.root, parent, async (folder) => {
        const there = await lstat(`${folder}/${name}`).catch(() => undefined);
        // Something that is not a file is there now (the user made a folder): left for the end's review.
        if (there && !there.isFile()) return false;
        if (there && copied && there.ctimeMs > copied.ctimeMs) return false;
        if (there && !copied && there.ctimeMs > this.startedAt) return false;
        const temporary = `${folder}/.gateway-landing-${randomBytes(6).toString('hex')}`;
        await writeFile(temporary, content.subarray(0, bytesRead), { mode: copyMode(info.mode, entry.wasExecutable), flag: 'wx' });
        await rename(temporary, `${folder}/${name}`).catch(async (error: unknown) => {
          await rm(temporary, { force: true });
          throw error;
        });
        const landed = await lstat(`${folder}/${name}`);
        this.copiedIn.set(entry.path, { mtimeMs: info.mtimeMs, size: info.size, ctimeMs: landed.ctimeMs });
        return true;
      });
    } finally {
      await handle.close();
    }
  }

  /**
   * Lands a held path and everything below it (the user chose Apply); throws saying why when it cannot. A path
   * that someone changed in the workspace since the review is not overwritten: the user moves it away first. What
   * could not be applied stays held, so a second Apply can finish it.
   */
  async apply(path: string, signal: AbortSignal): Promise<void> {
    const below = this.entries.filter((entry) => isAtOrBelow(entry.path, path));
    if (below.length === 0) throw new Error(`${shownPath(path)} is not held here (it was applied or discarded already)`);
    for (const entry of below) {
      if ((await this.workspaceStamp(entry)) !== this.stampsAtReview.get(entry.path)) {
        throw new Error(`${shownPath(entry.path)} was changed in the workspace since the command; move it away first, then apply again`);
      }
    }
    const failures: string[] = [];
    const applied = new Set<string>();
    for (const entry of below) {
      signal.throwIfAborted();
      await this.landEntry(entry, true).then(
        () => applied.add(entry.path),
        (error: unknown) => failures.push(`${shownPath(entry.path)}: ${reasonOf(error)}`),
      );
    }
    this.entries = this.entries.filter((entry) => !applied.has(entry.path));
    if (failures.length > 0) throw new Error(`not all of it could be applied (${failures.slice(0, 3).join('; ')})`);
  }

  /** Removes the layer folder and everything held in it. */
  async discard(): Promise<void> {
    this.entries = [];
    await removeTree(this.options.folder);
  }

  /**
   * A workspace entry's identity and change time, '' when there is none. A folder that applying `entry` would
   * empty or remove (a deletion, a folder made anew) is stamped by everything in it (bounded: past the bound it
   * never matches, so Apply asks the user to move it away); another folder by its being one (its files say the rest).
   */
  private async workspaceStamp(entry: ChangedEntry): Promise<string> {
    const absolute = join(this.options.root, entry.path);
    const there = await lstat(absolute).catch(() => undefined);
    if (!there) return '';
    if (!there.isDirectory()) return `${there.ino}:${there.ctimeMs}`;
    return entry.kind === 'deleted' || entry.removesFolder ? treeStamp(absolute, this.limits.maxRemovalEntries) : 'folder';
  }

  /**
   * What the look before the command found (outside node_modules): the folders that hold a `.git`, the bare git
   * directories and the runner configs, whose configs and texts the review reads.
   */
  knowWorkspace(known: KnownStructure): void {
    this.known = known;
  }

  /** The layer's own folder (upper, work, merged and lower are in it). */
  get folder(): string {
    return this.options.folder;
  }

  /** Whether anything is still held in this layer. */
  get holding(): boolean {
    return this.entries.length > 0;
  }

  /** Whether the workspace's entry at `path` changed after the command started, by another hand than this layer's. */
  private changedOutside(path: string, there: Stats): boolean {
    // A file an interim review copied in changed then, by this review's own hand.
    const copied = this.copiedIn.get(path);
    return there.ctimeMs > (copied ? Math.max(copied.ctimeMs, this.startedAt) : this.startedAt);
  }

  private async land(verdict: ChangeVerdict, signal: AbortSignal): Promise<{ path: string; reason: string }[]> {
    const failed: { path: string; reason: string }[] = [];
    const landed = new Set<string>();
    for (const entry of verdict.land) {
      signal.throwIfAborted();
      try {
        await this.landEntry(entry, false);
        landed.add(entry.path);
      } catch (error) {
        failed.push({ path: entry.path, reason: reasonOf(error) });
      }
    }
    this.entries = this.entries.filter((entry) => !landed.has(entry.path));
    return failed;
  }

  /**
   * One entry into the workspace, in its folder opened without following links and checked. `held`: the
   * user applies it, so links and special files are made too (a link as a link, never followed).
   */
  private async landEntry(entry: ChangedEntry, held: boolean): Promise<void> {
    const slash = entry.path.lastIndexOf('/');
    const parent = slash < 0 ? '' : entry.path.slice(0, slash);
    const name = entry.path.slice(slash + 1);
    // The layer's side too is reached one folder at a time without following links: whatever swapped a folder
    // of the layer for a link, nothing is taken from where it leads.
    const upperFolder = entry.kind === 'file' || entry.kind === 'symlink' ? await openBeneath(this.upper, parent, 'folder') : undefined;
    const source = upperFolder ? `/proc/self/fd/${upperFolder.fd}/${name}` : '';
    try {
      await this.landInto(entry, held, parent, name, source);
    } finally {
      await upperFolder?.close();
    }
  }

  private async landInto(entry: ChangedEntry, held: boolean, parent: string, name: string, source: string): Promise<void> {
    await withPinnedFolder(this.options.root, parent, async (folder) => {
      const target = `${folder}/${name}`;
      const there = await lstat(target).catch(() => undefined);
      if (there) this.refuseUnjudged(entry, there, held);
      switch (entry.kind) {
        case 'deleted':
          await rm(target, { recursive: true, force: true });
          return;
        case 'directory':
          if (there && (!there.isDirectory() || entry.opaque)) await rm(target, { recursive: true, force: true });
          if (!there || !there.isDirectory() || entry.opaque) await mkdir(target, { mode: entry.mode & 0o777 });
          else if ((there.mode & 0o7777) !== entry.mode && !held) await chmod(target, entry.mode & 0o777);
          return;
        case 'file':
          if (there?.isDirectory()) await rm(target, { recursive: true, force: true });
          await moveInto(source, folder, name);
          return;
        case 'symlink':
          if (!held) throw new Error('a link is not landed unasked');
          if (there) await rm(target, { recursive: true, force: true });
          await symlink(await readlink(source), target);
          return;
        case 'special':
          throw new Error('devices, pipes and sockets are not put into the workspace');
      }
    });
  }

  /**
   * Throws when landing `entry` would remove what the review did not judge, by what is at its path now: a folder
   * the review did not look through (something put a folder there since), or, for a folder put where a file
   * was, a file changed since the command started. An Apply (`held`) was checked against the review's stamps.
   */
  private refuseUnjudged(entry: ChangedEntry, there: Stats, held: boolean): void {
    if (there.isDirectory() && entry.kind !== 'directory' && !entry.removesFolder) {
      throw new Error('a folder is there now that the review did not look through; it was left as it is');
    }
    if (!there.isDirectory() && entry.kind === 'directory' && !held && this.changedOutside(entry.path, there)) {
      throw new Error('it was changed in the workspace while the command ran; it was left as it is');
    }
  }

  /** The held entries as the rollback port tells them (the user's notification, the model's note). */
  rollbackOf(result: ChangeReviewResult): ControlRollback {
    const moved: MovedControlPath[] = result.held.map((held) => ({
      path: held.entry.path,
      kind: controlKind(held.entry),
      kept: true,
      reason: describeHold(held),
    }));
    return { moved, failed: result.failed, ...(result.incomplete ? { incomplete: result.incomplete } : {}) };
  }
}

/** The held changes of one command, as the notification acts on them. */
export class HeldChanges implements QuarantinedControlPaths {
  constructor(
    private readonly layer: ChangeLayer,
    readonly rollback: ControlRollback,
    private readonly onDone: () => void,
  ) {}

  async restore(path: string, signal: AbortSignal): Promise<void> {
    const moved = this.rollback.moved.find((entry) => entry.path === path && entry.kept);
    if (!moved) throw new Error(`${shownPath(path)} is not held (it was applied or discarded already)`);
    await this.layer.apply(path, signal);
    moved.kept = false;
    if (!this.layer.holding) await this.discard(signal);
  }

  async discard(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.layer.discard();
    for (const entry of this.rollback.moved) entry.kept = false;
    this.onDone();
  }
}

function controlKind(entry: ChangedEntry): ControlPathKind {
  return entry.kind === 'directory' ? 'directory' : entry.kind === 'file' ? 'file' : entry.kind === 'symlink' ? 'symlink' : 'other';
}

/** The entry the final review would read for an interim copy: the handle's type, bits and names, and whether its bytes point Git elsewhere. */
function copiedEntry(entry: ChangedEntry, info: Stats, content: Buffer): ChangedEntry {
  const gitLink = /^\s*gitdir:/i.test(content.subarray(0, 16).toString('latin1'));
  return { ...entry, kind: 'file', mode: info.mode & 0o7777, hardLinked: info.nlink > 1, gitLink };
}

/**
 * The mode an interim copy is written with: 0644, or 0755 for a file that was executable in the workspace and
 * still is; never the command's bits themselves (whatever it flips them to after the fstat, round 17), only ever
 * narrower for group and others when it made the file more private than that (a file it keeps to its owner stays so).
 */
function copyMode(mode: number, wasExecutable: boolean | undefined): number {
  const chosen = (mode & 0o111) !== 0 && wasExecutable ? 0o755 : 0o644;
  return chosen & (mode | 0o700);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
