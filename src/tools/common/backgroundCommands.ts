/**
 * One session run's commands that keep running (a dev server, a watcher, `tail -f`),
 * started by run_command with `background` and read or stopped by command_output.
 * Each keeps only the end of its output (OutputRing); a start or a read waits,
 * bounded, for output to arrive and settle; a session may run only a few at once;
 * and the run's end stops them all (SessionRuns), so none outlives the run or its
 * time budget. Timers go through the Clock port, so tests control time.
 */
import type { Clock } from '../../base/common';
import { LINGERING_REASON, rollbackNote, type BackgroundStart, type ControlRollback, type ControlWatch, type StartedCommand } from '../../terminal/common';
import { OutputRing } from './outputRing';
import { ToolFailure } from './tool';

export interface BackgroundLimits {
  /** Commands that may run at once in a session. */
  maxRunning: number;
  /** The longest a start or a read waits for output. */
  waitMs: number;
  /** A wait ends once output has arrived and then none for this long. */
  quietMs: number;
  /** Output kept per command, unread; a wait also ends when this much is waiting. */
  keptBytes: number;
}

export const defaultBackgroundLimits: BackgroundLimits = { maxRunning: 4, waitMs: 15_000, quietMs: 2_000, keptBytes: 8 * 1024 };

/** Ended commands kept for a last read, besides the running ones. */
const ENDED_KEPT = 8;

/** The session already runs `maxRunning` background commands. */
export class BackgroundLimitReached extends ToolFailure {}
/** No background command of this session has that id. */
export class UnknownBackgroundCommand extends ToolFailure {}

/** How a background command ended: by itself, or stopped (by the agent, its time limit, the control-file guard, the session). */
export type BackgroundEnd = { exitCode: number | undefined; stoppedBy?: 'agent' | 'timeout' | 'guard' | 'session' };

/** What a start, a read or a stop tells the model. */
export interface BackgroundReport {
  id: string;
  command: string;
  /** Output new since the last report. */
  output: string;
  /** Bytes dropped unread since the last report (only the last `keptBytes` are kept). */
  droppedBytes: number;
  /** Undefined while it runs. */
  end: BackgroundEnd | undefined;
  sandboxed?: { network: boolean };
  /** Control files it left, rolled back (said once it ended). */
  rollback: string;
}

export interface BackgroundRequest {
  command: string;
  /** Workspace-relative. */
  cwd: string;
  /** Watches a sandboxed command for control files while it runs (the guard of run_command). */
  watch?: ControlWatch;
  /** Stops it after this long; none: it runs until it ends, is stopped, or the run ends. */
  lifetimeMs?: number;
}

export interface BackgroundCommandsOptions {
  /** Starts a command and leaves it running (the session's terminal shows it). */
  start: (request: BackgroundStart) => Promise<StartedCommand>;
  clock: Clock;
  limits?: Partial<BackgroundLimits>;
}

interface Entry {
  id: string;
  command: string;
  ring: OutputRing;
  started?: StartedCommand;
  end?: BackgroundEnd;
  stopReason?: BackgroundEnd['stoppedBy'];
  rollback: string;
  /** What the review at the last read held back (said with that read). */
  interim?: string;
  /** Its change review, when it runs sandboxed. */
  watch?: ControlWatch;
  /** Ends the timers of a command that is over. */
  over: AbortController;
  /** Called on new output and at the end: the waits listen. */
  listeners: Set<() => void>;
  /** Resolves once it has ended and its control-file watch has settled. */
  finished: Promise<void>;
}

export class BackgroundCommands {
  private readonly entries = new Map<string, Entry>();
  private readonly limits: BackgroundLimits;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: BackgroundCommandsOptions) {
    this.limits = { ...defaultBackgroundLimits, ...options.limits };
  }

  /** Starts a command, then waits (bounded) for its first output. */
  async start(request: BackgroundRequest, signal: AbortSignal): Promise<BackgroundReport> {
    if (this.closed) throw new ToolFailure('The session run is ending: no command can be started in the background now.');
    const running = [...this.entries.values()].filter((entry) => !entry.end);
    if (running.length >= this.limits.maxRunning) {
      const ids = running.map((entry) => entry.id).join(', ');
      throw new BackgroundLimitReached(
        `${running.length} background commands are running (${ids}), the most a session may run at once. Stop one with command_output and stop:true first.`,
      );
    }
    const entry = this.newEntry(request.command);
    let started: StartedCommand;
    try {
      started = await this.options.start({ command: request.command, cwd: request.cwd, onOutput: (text) => this.onOutput(entry, text), signal });
    } catch (error) {
      await request.watch?.settle(new AbortController().signal);
      throw error;
    }
    entry.started = started;
    if (request.watch) entry.watch = request.watch;
    this.entries.set(entry.id, entry);
    this.prune();
    entry.finished = this.follow(entry, started, request);
    await this.waitForOutput(entry, signal);
    // A stop of the run while waiting ends the command too: nothing is left that nobody reads.
    if (signal.aborted) await this.stopEntry(entry, 'session');
    else if (!entry.end && entry.watch?.review) entry.interim = await reviewed(entry.watch.review.bind(entry.watch));
    return this.report(entry);
  }

  /** What is new since the last report, after a bounded wait for output when it still runs. */
  async read(id: string, signal: AbortSignal): Promise<BackgroundReport> {
    const entry = this.entry(id);
    if (!entry.end) await this.waitForOutput(entry, signal);
    if (!entry.end && entry.watch?.review) entry.interim = await reviewed(entry.watch.review.bind(entry.watch));
    return this.report(entry);
  }

  /** Stops it (its process group, or its sandbox) and reports its last output. */
  async stop(id: string): Promise<BackgroundReport> {
    const entry = this.entry(id);
    await this.stopEntry(entry, 'agent');
    return this.report(entry);
  }

  /** The run ended: every command still running is stopped, and none can start after. */
  async stopAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.values()].map((entry) => this.stopEntry(entry, 'session')));
  }

  /** Commands running now (for tests and the terminal). */
  runningIds(): string[] {
    return [...this.entries.values()].filter((entry) => !entry.end).map((entry) => entry.id);
  }

  /** Output bytes held in memory for all commands (the bound's tests). */
  retainedBytes(): number {
    return [...this.entries.values()].reduce((sum, entry) => sum + entry.ring.retainedBytes, 0);
  }

  private newEntry(command: string): Entry {
    const id = `bg${this.nextId++}`;
    return {
      id,
      command,
      ring: new OutputRing(this.limits.keptBytes),
      rollback: '',
      over: new AbortController(),
      listeners: new Set(),
      finished: Promise.resolve(),
    };
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id.trim());
    if (entry) return entry;
    const known = [...this.entries.keys()];
    throw new UnknownBackgroundCommand(
      `There is no background command "${id}" in this session run${known.length > 0 ? `; there are: ${known.join(', ')}` : ''}. Start one with run_command and background:true.`,
    );
  }

  private onOutput(entry: Entry, text: string): void {
    entry.ring.add(text);
    for (const listener of entry.listeners) listener();
  }

  /** Until it ends: the time limit and the guard stop it; at the end the guard's watch settles and the waits hear of it. */
  private async follow(entry: Entry, started: StartedCommand, request: BackgroundRequest): Promise<void> {
    const { watch, lifetimeMs } = request;
    if (lifetimeMs !== undefined) this.options.clock.after(lifetimeMs, () => void this.stopEntry(entry, 'timeout'), entry.over.signal);
    const onTrip = () => void this.stopEntry(entry, 'guard');
    watch?.tripped.addEventListener('abort', onTrip, { once: true });
    const exitCode = await started.ended;
    watch?.tripped.removeEventListener('abort', onTrip);
    // Bounded by the guard itself; after the end, so what the command left is all there.
    if (watch) entry.rollback = await settled(watch, { stoppedByGuard: entry.stopReason === 'guard', lingering: started.lingering?.() === true });
    entry.end = { exitCode, ...(entry.stopReason ? { stoppedBy: entry.stopReason } : {}) };
    entry.over.abort();
    for (const listener of entry.listeners) listener();
  }

  private async stopEntry(entry: Entry, reason: NonNullable<BackgroundEnd['stoppedBy']>): Promise<void> {
    if (entry.end || !entry.started) return;
    entry.stopReason ??= reason;
    await entry.started.stop();
    await entry.finished;
  }

  /** Forgets the oldest ended commands past ENDED_KEPT. */
  private prune(): void {
    const ended = [...this.entries.values()].filter((entry) => entry.end);
    for (const entry of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) this.entries.delete(entry.id);
  }

  /**
   * Resolves when it has ended, when `keptBytes` are waiting unread, when output arrived and then
   * none for `quietMs`, after `waitMs`, or when `signal` aborts: whichever comes first.
   */
  private waitForOutput(entry: Entry, signal: AbortSignal): Promise<void> {
    const { clock } = this.options;
    return new Promise<void>((resolve) => {
      const done = new AbortController();
      let quiet: AbortController | undefined;
      const finish = () => {
        if (done.signal.aborted) return;
        done.abort();
        entry.listeners.delete(onChange);
        signal.removeEventListener('abort', finish);
        resolve();
      };
      const onChange = () => {
        if (entry.end || entry.ring.unreadBytes >= this.limits.keptBytes) return finish();
        if (entry.ring.unreadBytes === 0) return;
        quiet?.abort();
        quiet = new AbortController();
        clock.after(this.limits.quietMs, finish, AbortSignal.any([done.signal, quiet.signal]));
      };
      entry.listeners.add(onChange);
      signal.addEventListener('abort', finish, { once: true });
      clock.after(this.limits.waitMs, finish, done.signal);
      if (signal.aborted) finish();
      else onChange();
    });
  }

  private report(entry: Entry): BackgroundReport {
    const { text, droppedBytes } = entry.ring.read();
    const sandboxed = entry.started?.sandboxed;
    const rollback = entry.end ? entry.rollback : (entry.interim ?? '');
    entry.rollback = entry.end ? '' : entry.rollback;
    entry.interim = undefined;
    return { id: entry.id, command: entry.command, output: text, droppedBytes, end: entry.end, rollback, ...(sandboxed ? { sandboxed } : {}) };
  }
}

/** The note of a review while the command runs; a review that failed says so rather than nothing. */
async function reviewed(review: (signal: AbortSignal) => Promise<ControlRollback>): Promise<string> {
  try {
    return rollbackNote(await review(new AbortController().signal), false);
  } catch (error) {
    return `The review of what this command changed so far failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The rollback note of a watch once its command ended; a guard that failed says so rather than nothing. */
async function settled(watch: ControlWatch, end: { stoppedByGuard: boolean; lingering: boolean }): Promise<string> {
  try {
    // A process of it that outlived its stop may still write: then nothing lands unasked.
    return rollbackNote(await watch.settle(new AbortController().signal, end.lingering ? LINGERING_REASON : undefined), end.stoppedByGuard);
  } catch (error) {
    return `The check for control files this command left failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
