/**
 * The CommandRunner port as a child process: the user's shell runs the line
 * (`$SHELL -c`, cmd.exe on Windows) in its own process group, so a timeout or
 * a stop kills everything the command started, not just the shell. A
 * sandboxed command starts bwrap instead (spawnSandboxed): its PID namespace
 * ends every process of the command when the shell ends, and when bwrap is
 * stopped with its group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LINGERING_REASON, type BackgroundStart, type CommandResult, type CommandRunner, type StartedCommand } from '../common/commandPorts';
import { omittedNote } from '../../base/common';
import type { SandboxLaunch } from '../common/sandbox';
import { spawnSandboxed } from './sandboxSpawn';
import { absoluteInside } from '../../base/node';
import { followChild, stopGroup, type GroupStop } from './startedChild';

export interface NodeCommandRunnerOptions {
  /** The shell to run lines with; default `$SHELL`, else /bin/sh (ComSpec on Windows). */
  shell?: string;
  /** Output kept in memory; older output is dropped and counted. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL when stopping a command. Default 2 s. */
  killGraceMs?: number;
  /** Time to wait for the output to close after the shell exits (a background job may hold it open). Default 500 ms. */
  drainMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Sees the output as it arrives (the VS Code terminal shows it live). */
  onOutput?: (text: string) => void;
  /** Runs each command in a sandbox: `launch` gives what starts `command` there, for an absolute cwd. */
  sandbox?: { launch(command: string, cwd: string, signal: AbortSignal): Promise<SandboxLaunch> };
}

export class NodeCommandRunner implements CommandRunner {
  constructor(
    readonly root: string,
    private readonly options: NodeCommandRunnerOptions = {},
  ) {}

  async run(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<CommandResult> {
    signal.throwIfAborted();
    const absoluteCwd = absoluteInside(this.root, cwd);
    const sandbox = this.options.sandbox;
    const launch = sandbox ? await sandbox.launch(command, absoluteCwd, signal) : undefined;
    signal.throwIfAborted();
    const child = launch ? spawnSandboxed(launch, absoluteCwd) : this.spawnShell(command, absoluteCwd);
    const output = new OutputTail(this.options.maxOutputBytes ?? 1024 * 1024);
    const onOutput = this.options.onOutput;
    const take = (chunk: Buffer) => {
      output.add(chunk);
      onOutput?.(chunk.toString('utf8'));
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    return await new Promise<CommandResult>((resolvePromise, rejectPromise) => {
      let timedOut = false;
      let settled = false;
      let group: GroupStop | undefined;
      const stop = () => (group ??= this.killGroup(child));
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, timeoutMs);
      const onAbort = () => stop();
      signal.addEventListener('abort', onAbort, { once: true });
      /** Marks the run settled and lets go of the timer and the abort listener; false when it already was. */
      const settle = () => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        return true;
      };
      const finish = (exitCode: number | undefined) => {
        if (!settle()) return;
        // Let go of pipes a background job still holds, or they would keep this process alive.
        child.stdout?.destroy();
        child.stderr?.destroy();
        const done = (gone: boolean) => {
          const lingering = gone ? {} : { lingering: true as const };
          if (signal.aborted) rejectPromise(gone ? signal.reason : Object.assign(new Error(LINGERING_REASON), lingering, { cause: signal.reason }));
          else resolvePromise({ exitCode, output: output.text(), timedOut, ...lingering, ...(launch ? { sandboxed: { network: launch.network } } : {}) });
        };
        // After a stop, only once what it found is gone: the command's changes are reviewed next, and it must not still write them.
        if (group) void group.gone.then(done);
        else done(true);
      };
      child.on('error', (error) => {
        if (settle()) rejectPromise(error);
      });
      child.on('close', (code) => finish(code ?? undefined));
      // A background job (`server &`) can hold the output open long after the shell is done.
      child.on('exit', (code) => {
        setTimeout(() => finish(code ?? undefined), this.options.drainMs ?? 500).unref();
      });
    });
  }

  /** Starts `command` and leaves it running (run_command with background); Linux and macOS only, like the process groups it needs. */
  async start({ command, cwd, onOutput, signal }: BackgroundStart): Promise<StartedCommand> {
    signal.throwIfAborted();
    if (process.platform === 'win32') throw new Error('background commands need process groups, which Windows does not have');
    const absoluteCwd = absoluteInside(this.root, cwd);
    const launch = this.options.sandbox ? await this.options.sandbox.launch(command, absoluteCwd, signal) : undefined;
    signal.throwIfAborted();
    const child = launch ? spawnSandboxed(launch, absoluteCwd) : this.spawnShell(command, absoluteCwd);
    const sandboxed = launch ? { sandboxed: { network: launch.network } } : {};
    return followChild(child, { onOutput, killGraceMs: this.options.killGraceMs ?? 2000, drainMs: this.options.drainMs ?? 500, ...sandboxed });
  }

  private spawnShell(command: string, cwd: string): ChildProcess {
    const env = this.options.env ?? process.env;
    // No stdin: a command that waits for input gets end-of-file instead of hanging until the timeout.
    const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
    if (process.platform === 'win32') {
      const shell = this.options.shell ?? env.ComSpec ?? 'cmd.exe';
      return spawn(shell, ['/d', '/s', '/c', `"${command}"`], { cwd, env, stdio, windowsVerbatimArguments: true, windowsHide: true });
    }
    const shell = this.options.shell ?? env.SHELL ?? '/bin/sh';
    return spawn(shell, ['-c', command], { cwd, env, stdio, detached: true });
  }

  /** SIGTERM to the whole group, then SIGKILL after a grace period for whatever is left. */
  private killGroup(child: ChildProcess): GroupStop | undefined {
    const pid = child.pid;
    if (pid === undefined) return undefined;
    if (process.platform === 'win32') {
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
      return undefined;
    }
    return stopGroup(pid, this.options.killGraceMs ?? 2000);
  }
}

/** The last `maxBytes` of the combined output, and a count of what was dropped before it. */
class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0].length >= this.maxBytes) {
      const first = this.chunks.shift() as Buffer;
      this.size -= first.length;
      this.dropped += first.length;
    }
  }

  text(): string {
    let bytes = Buffer.concat(this.chunks);
    let dropped = this.dropped;
    if (bytes.length > this.maxBytes) {
      dropped += bytes.length - this.maxBytes;
      bytes = bytes.subarray(bytes.length - this.maxBytes);
    }
    // Start on a character boundary after a cut.
    let start = 0;
    while (dropped > 0 && start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
    const text = bytes.subarray(start).toString('utf8');
    return dropped + start > 0 ? `${omittedNote(dropped + start)}${text}` : text;
  }
}
