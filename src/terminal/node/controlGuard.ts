/**
 * The ControlFileGuard port on this machine: the change review around each
 * sandboxed command. Before it, a copy-on-write layer is made and armed for
 * the session's next sandbox launch (the command writes there, never into the
 * workspace); while it runs, a protected file that appears in the workspace
 * (the user saving `.env`) stops it, since the command sees the workspace as
 * it is; when it ends, the layer's change set is judged and what may land
 * lands, the rest is held for the user (src/terminal/node/changeLayer.ts).
 * No walk of the workspace before or after: only what the command changed is read.
 */
import { randomBytes } from 'node:crypto';
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
  arm(layer: ChangeLayer): () => void;
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
    const disarm = this.options.layers.arm(layer);
    return new ReviewedCommand({ root, layer, disarm, guard: this, options: this.options });
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
  private readonly subscription: { dispose(): void } | undefined;
  private settled: Promise<ControlRollback> | undefined;

  constructor(private readonly parts: { root: string; layer: ChangeLayer; disarm: () => void; guard: NodeControlGuard; options: NodeControlGuardOptions }) {
    const patterns = parts.options.protectedFiles();
    this.subscription = parts.options.watcher?.watch(parts.root, [], (path) => {
      if (protectingPattern(path, patterns) !== undefined) this.trip.abort(new Error(`a protected file appeared while the command ran: ${path}`));
    });
  }

  settle(signal: AbortSignal): Promise<ControlRollback> {
    this.settled ??= this.interim.then(() => this.finalReview(signal));
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

  private async finalReview(signal: AbortSignal): Promise<ControlRollback> {
    const { layer, disarm, guard, options } = this.parts;
    this.subscription?.dispose();
    // A launch that never took the layer (the command failed to start) leaves it armed: nothing may write through it later.
    disarm();
    const result = await layer.review(signal);
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
