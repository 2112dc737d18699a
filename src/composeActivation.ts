/**
 * How activate() is timed and what it leaves for later (part of the composition root, see
 * extension.ts). Every extension shares one extension host, so activate() does only what the
 * first paint needs; each step is timed so the e2e run can name the slowest, and the rest
 * (reading logs and folders, clean-ups) runs after activate() has returned, each task in a
 * macrotask of its own so none holds the host for long, its failure logged rather than lost.
 */
import type { Logger } from './base/common';

export interface StepTiming {
  name: string;
  /** Wall-clock time. */
  ms: number;
  /** The process's CPU time meanwhile: on a loaded machine the wall clock also counts the waits for a core. */
  cpuMs: number;
}

/** Runs one step of activation and records its time (ActivationSteps.step). */
export type TimedStep = <T>(name: string, build: () => T) => T;

/** Work left for after activation: started once activate() returned, stopped when the window closes. */
export type DeferredTask = (signal: AbortSignal) => Promise<unknown>;

/** Runs `task` on a later turn of the event loop (a macrotask of its own). */
export type Scheduler = (task: () => void) => void;

export class ActivationSteps {
  private readonly started = performance.now();
  private readonly startedCpu = process.cpuUsage();
  private readonly timings: StepTiming[] = [];
  private readonly deferred: { name: string; task: DeferredTask }[] = [];
  private readonly stopped = new AbortController();
  private total: { ms: number; cpuMs: number } | undefined;

  constructor(private readonly schedule: Scheduler = (task) => setTimeout(task, 0)) {}

  /** Runs one step of activate() and records how long it took. */
  step<T>(name: string, build: () => T): T {
    const before = performance.now();
    const beforeCpu = process.cpuUsage();
    try {
      return build();
    } finally {
      this.timings.push({ name, ms: performance.now() - before, cpuMs: cpuMsSince(beforeCpu) });
    }
  }

  /** Queues work for after activate() returned. */
  defer(name: string, task: DeferredTask): void {
    this.deferred.push({ name, task });
  }

  /**
   * Ends the timed part and starts the deferred tasks on later turns of the event loop. Returns
   * a disposable that aborts those still running (the window closing).
   */
  finish(logger: Logger): { dispose(): void } {
    this.total = { ms: performance.now() - this.started, cpuMs: cpuMsSince(this.startedCpu) };
    for (const { name, task } of this.deferred) {
      this.schedule(() => void this.runDeferred(name, task, logger));
    }
    return { dispose: () => this.stopped.abort() };
  }

  /** activate()'s wall-clock and CPU time, once finished. */
  activation(): { ms: number; cpuMs: number } {
    return this.total ?? { ms: performance.now() - this.started, cpuMs: cpuMsSince(this.startedCpu) };
  }

  /** The steps, slowest first. */
  slowest(count: number): StepTiming[] {
    return [...this.timings].sort((a, b) => b.ms - a.ms).slice(0, count);
  }

  private async runDeferred(name: string, task: DeferredTask, logger: Logger): Promise<void> {
    if (this.stopped.signal.aborted) return;
    try {
      await task(this.stopped.signal);
    } catch (error) {
      if (!this.stopped.signal.aborted) logger.warn(`after activation: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** "agent 3.1 ms (2.9 CPU), gateway: settings 2.0 ms (1.8 CPU)": the slowest steps for the log. */
export function describeSteps(steps: readonly StepTiming[]): string {
  return steps.map((s) => `${s.name} ${s.ms.toFixed(1)} ms (${s.cpuMs.toFixed(1)} CPU)`).join(', ');
}

function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
