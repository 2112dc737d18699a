/**
 * A child process started to keep running (StartedCommand): its output decoded as
 * it comes, its end, and a stop that ends its whole process group (or, sandboxed,
 * bwrap's group, whose PID namespace takes every process of the command with it).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  const exited = endOf(child, options);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pid = child.pid as number;
  // What the shell left in its group (`server &`) is stopped with it: nobody would read it or stop it later.
  void exited.then(() => signalGroup(pid, 'SIGKILL'));
  let group: GroupStop | undefined;
  let lingering = false;
  // Ended only once what a stop found running is gone too: the review of its changes must not race it.
  const ended = exited.then(async (code) => {
    if (group && !(await group.gone)) lingering = true;
    return code;
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      group = stopGroup(pid, options.killGraceMs);
      // A process the kernel cannot end (uninterruptible sleep) must not hold the session's end forever.
      const giveUp = setTimeout(resolve, options.killGraceMs + 4000);
      void ended.then(() => {
        clearTimeout(giveUp);
        resolve();
      });
    }));
  return { ended, stop, lingering: () => lingering, ...(options.sandboxed ? { sandboxed: options.sandboxed } : {}) };
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

/**
 * A stop under way: `gone` resolves once every process it found is gone (true), or, bounded, when waiting is given
 * up while one still runs (false: what it changed must not land unasked).
 */
export interface GroupStop {
  readonly gone: Promise<boolean>;
}

/** How often a stop looks whether what it found is gone. */
const GONE_POLL_MS = 25;

/**
 * SIGTERM to the group and to the children its leader has when the stop begins, SIGKILL to all of them after
 * `graceMs`. A sandboxed command is PID 1 of its namespace, a child of bwrap (the leader) outside bwrap's group,
 * and it can clear the parent-death signal that would end it with bwrap: it is ended by its PID (its start time
 * checked first, so a reused PID is never hit), and its namespace ends with it. `gone` waits for those children,
 * so nothing reviews the command's changes while it still runs.
 */
export function stopGroup(pid: number, graceMs: number): GroupStop {
  const inner = childrenOf(pid);
  const alive = () => inner.filter((child) => startTimeOf(child.pid) === child.start);
  signalGroup(pid, 'SIGTERM');
  for (const child of alive()) signalProcess(child.pid, 'SIGTERM');
  setTimeout(() => {
    signalGroup(pid, 'SIGKILL');
    for (const child of alive()) signalProcess(child.pid, 'SIGKILL');
  }, graceMs);
  const gone = new Promise<boolean>((resolve) => {
    const deadline = Date.now() + graceMs + 3000;
    const look = () => {
      const running = alive().length > 0;
      if (!running || Date.now() > deadline) {
        resolve(!running);
        return;
      }
      // Not unref'd: a run waits on this (bounded by the deadline), and nothing else may be keeping the process up.
      setTimeout(look, GONE_POLL_MS);
    };
    look();
  });
  return { gone };
}

/** The children of `pid` with their start times (Linux /proc; none elsewhere). */
function childrenOf(pid: number): { pid: number; start: string }[] {
  try {
    const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return listed === '' ? [] : listed.split(/\s+/).map((child) => ({ pid: Number(child), start: startTimeOf(Number(child)) ?? '' }));
  } catch {
    return [];
  }
}

/** Field 22 of /proc/PID/stat (after the parenthesised name, which may hold spaces). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
