/**
 * The ControlFileGuard port on this machine: before a sandboxed command, the
 * workspace's control paths are noted (with their identity); while it runs, a
 * watcher reports each new one, which trips the watch (the command is stopped)
 * and is moved out at once, before VS Code's git extension (which opens a new
 * repository half a second after its file event) or anything else acts on it;
 * when the command has ended, a second walk finds whatever the watcher missed
 * and moves it out too. Existing control paths are read-only in the sandbox.
 */
import { lstat, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { controlPathOf, type ControlPathKind, type ControlRollback } from '../common/controlPaths';
import type { Logger } from '../../base/common';
import type { ControlFileGuard, ControlPathWatcher, ControlWatch, QuarantinedControlPaths } from '../common/commandPorts';
import { ControlQuarantine, type QuarantineBatch } from './controlQuarantine';
import { isInside } from '../../tools/node';
import { newControlPaths, scanWorkspace, WorkspaceTooLarge, type ControlEntry, type WorkspaceScan } from './sandboxWorkspaceScan';

export interface NodeControlGuardOptions {
  /** The workspace folder. */
  root: string;
  /** The session's quarantine folder (see ControlQuarantine): outside the workspace. */
  quarantineFolder: string;
  watcher: ControlPathWatcher;
  /** Whether the command about to run goes into the sandbox (the `auto` mode): only those are guarded. */
  willSandbox: () => boolean;
  /** Told of every rollback that moved something, with the means to restore or discard it (the user's notification). */
  onRollback?: (quarantined: QuarantinedControlPaths) => void;
  logger?: Logger;
  /** The after-command walk's time limit; default the walk's own. */
  scanTimeLimitMs?: number;
}

export class NodeControlGuard implements ControlFileGuard {
  constructor(private readonly options: NodeControlGuardOptions) {}

  async watch(signal: AbortSignal): Promise<ControlWatch | undefined> {
    if (!this.options.willSandbox()) return undefined;
    // Real paths: every move checks that a folder is really where it should be.
    const root = await realpath(this.options.root);
    const folder = resolve(this.options.quarantineFolder);
    if (isInside(root, folder)) throw new Error('the quarantine folder for control files is inside the workspace');
    const before = await scanWorkspace(root, { signal });
    return new GuardedCommand({ ...this.options, root }, new ControlQuarantine({ root, folder }), before);
  }
}

class GuardedCommand implements ControlWatch {
  private readonly trip = new AbortController();
  readonly tripped = this.trip.signal;
  private readonly subscription: { dispose(): void };
  private batch: Promise<QuarantineBatch> | undefined;
  /** The moves started while the command runs, one after another (each path once). */
  private moves: Promise<void> = Promise.resolve();
  private readonly handled = new Set<string>();

  constructor(
    private readonly options: NodeControlGuardOptions,
    private readonly quarantine: ControlQuarantine,
    private readonly before: WorkspaceScan,
  ) {
    this.subscription = options.watcher.watch(options.root, before.folders, (path) => this.onControlPath(path));
  }

  /** A watcher event: a control path that was not there before trips the watch and is moved out now. */
  private onControlPath(reported: string): void {
    const path = controlPathOf(reported);
    if (path === undefined || this.handled.has(path)) return;
    this.moves = this.moves.then(async () => {
      const entry = await currentEntry(this.options.root, path);
      if (!entry || this.before.controls.get(path)?.identity === entry.identity || this.handled.has(path)) return;
      this.handled.add(path);
      this.trip.abort(new Error(`the command created ${path}`));
      await (await this.openBatch()).moveAside(path, entry.kind, new AbortController().signal);
    });
    this.moves = this.moves.catch((error: unknown) => this.options.logger?.warn(`control-file guard: moving ${path} failed: ${String(error)}`));
  }

  async settle(signal: AbortSignal): Promise<ControlRollback> {
    this.subscription.dispose();
    await this.moves;
    let incomplete: string | undefined;
    let after: WorkspaceScan | undefined;
    try {
      after = await scanWorkspace(this.options.root, { signal, timeLimitMs: this.options.scanTimeLimitMs });
    } catch (error) {
      if (!(error instanceof WorkspaceTooLarge)) throw error;
      incomplete = `${error.message}; control files the command may have left were not all looked for, so look at what it changed`;
    }
    // What is there now: a path moved while the command ran is gone, unless the command made it again before it died.
    const added = after ? newControlPaths(this.before.controls, after.controls) : [];
    const batch = added.length > 0 || this.batch ? await this.openBatch() : undefined;
    if (batch) await movedAsideTogether(batch, added, signal);
    await batch?.settleHeld(signal);
    const rollback: ControlRollback = batch
      ? { ...batch.rollback, ...(incomplete ? { incomplete } : {}) }
      : { moved: [], failed: [], ...(incomplete ? { incomplete } : {}) };
    if (batch && (rollback.moved.length > 0 || rollback.failed.length > 0)) this.options.onRollback?.(batch);
    return rollback;
  }

  private openBatch(): Promise<QuarantineBatch> {
    this.batch ??= this.quarantine.openBatch(new AbortController().signal);
    return this.batch;
  }
}

/** The control path as it is now, or undefined when nothing is there. */
async function currentEntry(root: string, path: string): Promise<ControlEntry | undefined> {
  const info = await lstat(join(root, ...path.split('/')), { bigint: true }).catch(() => undefined);
  if (!info) return undefined;
  const kind: ControlPathKind = info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  return { path, kind, identity: `${info.dev}:${info.ino}` };
}

/** How many moves run at once: each is a few system calls that wait on the disk, so a handful in flight saves most of the wait. */
const MOVES_IN_FLIGHT = 8;

/** Moves every added control path out, a few at a time (the batch records each as its move ends). */
async function movedAsideTogether(batch: QuarantineBatch, added: readonly { path: string; kind: ControlPathKind }[], signal: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < added.length) {
      const entry = added[next++];
      await batch.moveAside(entry.path, entry.kind, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MOVES_IN_FLIGHT, added.length) }, worker));
}
