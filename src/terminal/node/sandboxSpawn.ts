/** The start of a sandboxed command (its launch made by bubblewrap.ts): kept apart, in the bundle, from the sandbox loaded at first use. */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { seccompFd, type SandboxLaunch } from '../common/sandbox';

/**
 * Starts a launch: `argv` with exactly its environment, in its own process
 * group, no stdin (a command never reads the user's terminal), the seccomp
 * program written to a pipe at `seccompFd` and closed (a pipe, not a file the
 * sandbox could change before bwrap reads it).
 */
export function spawnSandboxed(launch: SandboxLaunch, cwd: string): ChildProcess {
  const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd, env: launch.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  const program = child.stdio[seccompFd] as Writable | null;
  // A bwrap that dies before reading it closes the pipe: that is its error to report, not this write's.
  program?.on('error', () => undefined);
  program?.end(Buffer.from(launch.seccomp));
  return child;
}
