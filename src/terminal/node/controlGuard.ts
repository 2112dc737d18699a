/**
 * The ControlFileGuard port on this machine: the change review around each
 * sandboxed command. Before it, a copy-on-write layer is made and armed for
 * the session's next sandbox launch (the command writes there, never into the
 * workspace); while it runs, a protected file that appears in the workspace, or
 * in another folder whose protected files the launch covers (the user saving
 * `.env`), stops it, since the command sees those folders as they are; when it ends, the layer's change set is judged and what may land
 * lands, the rest is held for the user (src/terminal/node/changeLayer.ts).
 * No walk of the workspace before or after: only what the command changed is read.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { mkdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '../../base/common';
import { protectingPattern } from '../../base/common';
import { isInside } from '../../base/node';
import type { ControlRollback } from '../common/controlPaths';
import type { ControlFileGuard, ControlPathWatcher, ControlWatch, QuarantinedControlPaths } from '../common/commandPorts';
import { ChangeLayer, HeldChanges, type ChangeLimits } from './changeLayer';

/** Where a session's next sandboxed command writes: its launch takes the layer armed for it. */
export interface LayerArming {
  /**
   * `covered`: told by the launch that takes the layer which further folders' protected files it covers (the
   * window's other folders), before it looks at them: what appears there after that look is not covered, so the
   * command's review watches them too; then the protected files it covers (absolute paths), before the command
   * starts: one moved away from where it is covered (its folder renamed) is not covered where it goes.
   */
  arm(layer: ChangeLayer, covered?: CoverageTold): () => void;
}

/** What a launch tells the guard of what it covers. */
export interface CoverageTold {
  folders(folders: readonly string[]): void;
  files(paths: readonly string[]): void;
}

export interface NodeControlGuardOptions {
  /** The workspace folder. */
  root: string;
  /** The session's folder for change layers (kept while something in them is held): outside the workspace. */
  quarantineFolder: string;
  /** The session's sandbox, which mounts the armed layer over the workspace. */
  layers: LayerArming;
  /** `gateway.agent.protectedFiles` now. */
  protectedFiles: () => readonly string[];
  /** Reports paths that appear in the workspace while a command runs (VS Code's watcher); none: not watched. */
  watcher?: ControlPathWatcher;
  /** Whether the command about to run goes into the sandbox (the `auto` mode): only those are reviewed. */
  willSandbox: () => boolean;
  /** Told of every review that held something back, with the means to apply or discard it (the user's notification). */
  onRollback?: (held: QuarantinedControlPaths) => void;
  logger?: Logger;
  /** Default the user's home folder (`~/` in a Git config). */
  home?: string;
  limits?: Partial<ChangeLimits>;
  /** Layers with something held that are kept; older ones are discarded. Default 20. */
  maxHeldLayers?: number;
}

export class NodeControlGuard implements ControlFileGuard {
  private readonly heldLayers: ChangeLayer[] = [];

  constructor(private readonly options: NodeControlGuardOptions) {}

  async watch(signal: AbortSignal): Promise<ControlWatch | undefined> {
    if (!this.options.willSandbox()) return undefined;
    signal.throwIfAborted();
    const root = await realpath(this.options.root);
    const folder = resolve(this.options.quarantineFolder);
    if (isInside(root, folder)) throw new Error('the folder for the sandbox’s change layers is inside the workspace');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const layer = await ChangeLayer.open({
      root,
      folder: join(folder, `${Date.now().toString(36).padStart(10, '0')}-${randomBytes(4).toString('hex')}`),
      protectedPatterns: this.options.protectedFiles(),
      home: this.options.home ?? homedir(),
      ...(this.options.limits ? { limits: this.options.limits } : {}),
    });
    return new ReviewedCommand({ root, layer, guard: this, options: this.options });
  }

  /** A layer that still holds something is kept for the user; past the bound the oldest goes. */
  async keep(layer: ChangeLayer): Promise<void> {
    this.heldLayers.push(layer);
    const excess = this.heldLayers.length - (this.options.maxHeldLayers ?? 20);
    for (const old of this.heldLayers.splice(0, Math.max(0, excess))) await old.discard();
  }

  forget(layer: ChangeLayer): void {
    const index = this.heldLayers.indexOf(layer);
    if (index >= 0) this.heldLayers.splice(index, 1);
  }
}

class ReviewedCommand implements ControlWatch {
  private readonly trip = new AbortController();
  readonly tripped = this.trip.signal;
  /** One watch per watched folder (the root, then each covered one), for the command's lifetime. */
  private readonly subscriptions: { dispose(): void }[] = [];
  private readonly patterns: readonly string[];
  private readonly disarm: () => void;
  private settled: Promise<ControlRollback> | undefined;
  /** The protected files the launch covers (absolute), once it told them. */
  private covered: readonly string[] = [];

  constructor(private readonly parts: { root: string; layer: ChangeLayer; guard: NodeControlGuard; options: NodeControlGuardOptions }) {
    this.patterns = parts.options.protectedFiles();
    this.watchFolder(parts.root, 'a protected file appeared while the command ran');
    this.disarm = parts.options.layers.arm(parts.layer, {
      folders: (folders) => this.watchCovered(folders),
      files: (paths) => this.knowCovered(paths),
    });
  }

  /** The launch's further covered folders (already bounded by it): a protected file saved in one trips the command as in the root. */
  private watchCovered(folders: readonly string[]): void {
    for (const folder of folders) this.watchFolder(folder, `a protected file appeared in the workspace folder ${folder} while the command ran`);
  }

  private watchFolder(folder: string, message: string): void {
    const watcher = this.parts.options.watcher;
    // A launch that ends after the review began (stopped meanwhile) must not leave a watch nobody disposes.
    if (!watcher || this.settled) return;
    const subscription = watcher.watch(
      folder,
      [],
      (path) => {
        if (protectingPattern(path, this.patterns) !== undefined) this.trip.abort(new Error(`${message}: ${path}`));
      },
      (path) => this.checkCovered(join(folder, path)),
    );
    this.subscriptions.push(subscription);
  }

  /**
   * The protected files the launch covers. The cover is a mount at each one's path: a folder above one renamed
   * while the command runs takes the file to a path nobody covers (the editor's watcher reports the folder by its
   * new name, not the files in it), so a covered file no longer where it was covered stops the command.
   */
  private knowCovered(paths: readonly string[]): void {
    this.covered = paths;
    this.checkCovered(undefined);
  }

  /** Stops the command when a covered file at or below `gone` (every one when undefined) is no longer at its path. */
  private checkCovered(gone: string | undefined): void {
    for (const path of this.covered) {
      if (gone !== undefined && path !== gone && !path.startsWith(`${gone}/`)) continue;
      if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) continue;
      this.trip.abort(new Error(`a protected file was moved or removed while the command ran (${path}): where it went, it is not covered`));
      return;
    }
  }

  settle(signal: AbortSignal, holdAll?: string): Promise<ControlRollback> {
    this.settled ??= this.interim.then(() => this.finalReview(signal, holdAll));
    return this.settled;
  }

  /** One interim review at a time, and none after the end's. */
  private interim: Promise<unknown> = Promise.resolve();

  review(signal: AbortSignal): Promise<ControlRollback> {
    if (this.settled) return this.settled;
    const next = this.interim.then(async () => this.parts.layer.rollbackOf(await this.parts.layer.review(signal, true)));
    this.interim = next.catch(() => undefined);
    return next;
  }

  private async finalReview(signal: AbortSignal, holdAll: string | undefined): Promise<ControlRollback> {
    const { layer, guard, options } = this.parts;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    // A launch that never took the layer (the command failed to start) leaves it armed: nothing may write through it later.
    this.disarm();
    const result = await layer.review(signal, false, holdAll);
    const rollback = layer.rollbackOf(result);
    if (!layer.holding) {
      // The layer is empty of anything held: removing it is the host's housekeeping, not the command's time.
      void layer.discard().catch((error: unknown) => options.logger?.warn(`sandbox: a change layer could not be removed: ${String(error)}`));
      return rollback;
    }
    await guard.keep(layer);
    options.logger?.info(`sandbox: held back ${result.held.length} change(s) of a command: ${result.held.map((held) => held.entry.path).join(', ')}`);
    options.onRollback?.(new HeldChanges(layer, rollback, () => guard.forget(layer)));
    return rollback;
  }
}
