/**
 * A child process started to keep running (StartedCommand): its output decoded as
 * it comes, its end, and a stop that ends its whole process group (or, sandboxed,
 * bwrap's group, whose PID namespace takes every process of the command with it).
 */
import type { ChildProcess } from 'node:child_process';
import type { StartedCommand } from '../common/commandPorts';

export interface FollowOptions {
  onOutput: (text: string) => void;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** Time to wait for the output to close after the shell exits (a background job may hold it open). */
  drainMs: number;
  sandboxed?: { network: boolean };
}

/** Resolves once the child runs; rejects when it could not be started (no such shell, no bwrap). */
export async function followChild(child: ChildProcess, options: FollowOptions): Promise<StartedCommand> {
  const ended = endOf(child, options);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pid = child.pid as number;
  // What the shell left in its group (`server &`) is stopped with it: nobody would read it or stop it later.
  void ended.then(() => signalGroup(pid, 'SIGKILL'));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      signalGroup(pid, 'SIGTERM');
      const kill = setTimeout(() => signalGroup(pid, 'SIGKILL'), options.killGraceMs);
      // A process the kernel cannot end (uninterruptible sleep) must not hold the session's end forever.
      const giveUp = setTimeout(resolve, options.killGraceMs + 2000);
      void ended.then(() => {
        clearTimeout(kill);
        clearTimeout(giveUp);
        resolve();
      });
    }));
  return { ended, stop, ...(options.sandboxed ? { sandboxed: options.sandboxed } : {}) };
}

/** The exit code once the child has exited and its output is read (or the drain time is over); never rejects. */
function endOf(child: ChildProcess, { onOutput, drainMs }: FollowOptions): Promise<number | undefined> {
  for (const stream of [child.stdout, child.stderr]) {
    // One decoder a stream: a character split between two chunks is kept whole.
    const decoder = new TextDecoder();
    stream?.on('data', (chunk: Buffer) => onOutput(decoder.decode(chunk, { stream: true })));
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(code ?? undefined);
    };
    child.on('error', () => finish(null));
    child.on('close', finish);
    child.on('exit', (code) => setTimeout(() => finish(code), drainMs).unref());
  });
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
