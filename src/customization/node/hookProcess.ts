/**
 * The HookHost on this machine: a hook is a shell line from the repository, run
 * with its JSON input on stdin, in its own process group, stopped as run_command
 * is (SIGKILL to the group and, sandboxed, to bwrap's children by PID) at its
 * time limit, at an abort and when it ends, its run over only once they are
 * gone; its stdout and stderr each kept to a bound.
 * Its environment is rebuilt from the sandbox's allow-list (no API key, token
 * or socket address of the extension host reaches it), sandboxed or not; in the
 * `auto` mode it runs in the session's bubblewrap sandbox like run_command. A
 * Copilot hook's `env` is exported by its own shell before its line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import type { Writable } from 'node:stream';
import { sandboxEnvironment, seccompFd, type SandboxLaunch } from '../../terminal/common';
import { stopGroup, type GroupStop } from '../../terminal/node';
import { absoluteInside } from '../../base/node';
import type { HookHost, HookRunRequest } from '../common/hooks';
import { hookStillRunning, type HookProcessResult } from '../common/hookProtocol';
import { envExports } from '../common/hookConfig';

export interface NodeHookHostOptions {
  /** Absolute workspace root. */
  root: string;
  /** The sandbox launch of `command` in the absolute `cwd` when commands of the session run sandboxed (the `auto` mode); else undefined. */
  sandboxFor: (command: string, cwd: string, signal: AbortSignal) => Promise<SandboxLaunch | undefined>;
  /** The environment the hook's is filtered from; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** The shell outside the sandbox; default /bin/sh (a hook file is written for sh or bash). */
  shell?: string;
}

export function nodeHookHost(options: NodeHookHostOptions): HookHost {
  return {
    run: (request, signal) => runHook(options, request, signal),
    digest: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
  };
}

async function runHook(options: NodeHookHostOptions, request: HookRunRequest, signal: AbortSignal): Promise<HookProcessResult> {
  signal.throwIfAborted();
  const cwd = absoluteInside(options.root, request.cwd);
  // A hook's own env is exported by its shell, inside the sandbox when it runs there: never the launcher's environment.
  const line = `${envExports(request.env)}${request.command}`;
  const launch = await options.sandboxFor(line, cwd, signal);
  signal.throwIfAborted();
  const child = launch ? spawnInSandbox(launch, cwd, options.root) : spawnPlain(options, line, cwd);
  return finished(child, request, signal);
}

function spawnPlain(options: NodeHookHostOptions, command: string, cwd: string): ChildProcess {
  const shell = options.shell ?? '/bin/sh';
  const env = { ...sandboxEnvironment(options.env ?? process.env, { home: homedir(), shell }), CLAUDE_PROJECT_DIR: options.root };
  return spawn(shell, ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
}

/** As run_command's sandboxed start, with stdin a pipe (the hook's input) and the seccomp program on its descriptor. */
function spawnInSandbox(launch: SandboxLaunch, cwd: string, root: string): ChildProcess {
  const env = { ...launch.env, CLAUDE_PROJECT_DIR: root };
  const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
  const program = child.stdio[seccompFd] as Writable | null;
  program?.on('error', () => undefined);
  program?.end(Buffer.from(launch.seccomp));
  return child;
}

/** Time to wait for the output to close once the hook is gone or given up (a process out of reach may hold it open). */
const DRAIN_MS = 500;

function finished(child: ChildProcess, request: HookRunRequest, signal: AbortSignal): Promise<HookProcessResult> {
  const stdout = new BoundedText(request.maxOutputBytes);
  const stderr = new BoundedText(request.maxOutputBytes);
  child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
  // A hook that does not read its input closes the pipe: not an error of ours.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(request.stdin);
  return new Promise((resolve, reject) => {
    let timedOut = false;
    let exitCode: number | undefined;
    let settled = false;
    // run_command's stop (terminal/node startedChild.ts): the group, and bwrap's children by PID, since a sandboxed
    // hook is PID 1 of its namespace in a session of its own and may clear its parent-death signal; no grace time.
    let group: GroupStop | undefined;
    const stop = () => {
      if (child.pid !== undefined) group ??= stopGroup(child.pid, 0);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, request.timeoutMs);
    signal.addEventListener('abort', stop, { once: true });
    const done = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      return true;
    };
    child.once('error', (error) => {
      if (done()) reject(error);
    });
    // Ends only once what a stop found is gone: the hook's changes are reviewed next, and it must not still write them.
    const finish = async () => {
      if (!done()) return;
      child.stdout?.destroy();
      child.stderr?.destroy();
      const gone = (await group?.gone) ?? true;
      if (!gone) reject(hookStillRunning(`was stopped, but a process of it could not be confirmed gone`));
      else if (signal.aborted) reject(signal.reason);
      else resolve({ exitCode: timedOut ? undefined : exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut });
    };
    // What the hook left running in its group would hold the pipes open: it goes with the hook.
    child.once('exit', (code) => {
      exitCode = code ?? undefined;
      stop();
      void (group?.gone ?? Promise.resolve()).then(() => setTimeout(() => void finish(), DRAIN_MS).unref());
    });
    child.once('close', () => void finish());
  });
}

/** The first `maxBytes` of a stream, and a count of what came after. */
class BoundedText {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    const room = this.maxBytes - this.kept;
    if (room > 0) this.chunks.push(chunk.subarray(0, room));
    this.kept += Math.min(room > 0 ? room : 0, chunk.length);
    this.dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped > 0 ? `${text}\n(${this.dropped} more bytes of output were left out)` : text;
  }
}
