/**
 * Runs the agent's commands where the user sees them: in a terminal named after
 * the session, through shell integration (output read from the execution, exit
 * code from onDidEndTerminalShellExecution). When shell integration does not
 * come up within a few seconds, that and every later command of the session run
 * as child processes, their output shown in a terminal of the same name.
 *
 * A sandboxed command is never typed into the user's shell: it always runs as a
 * child process with no stdin, shown in that output-only terminal. In the
 * user's shell it would hold the terminal (TIOCSTI could type a line the shell
 * runs after the sandbox ends), and the terminal would echo bwrap's whole argv.
 */
import * as vscode from 'vscode';
import type { Clock } from '../../base/common';
import type { BackgroundStart, CommandResult, CommandRunner, StartedCommand } from '../common/commandPorts';
import { superviseExecution } from '../common/executionSupervisor';
import type { SandboxLaunch } from '../common/sandbox';
import { commandLineFor, shellKindOf } from '../common/shellCommandLine';

/** How a command runs sandboxed: everything its start needs (bwrap's argv with the command, the environment, the seccomp program). */
export type CommandSandbox = SandboxLaunch;

/** A command to run as a child process: `cwd` is absolute; output streams to `onOutput`; in `sandbox` when given. */
export interface ChildCommand {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  onOutput: (text: string) => void;
  sandbox?: CommandSandbox;
}

/** A command to start and leave running as a child process: `cwd` is absolute; in `sandbox` when given. */
export interface ChildStart extends BackgroundStart {
  sandbox?: CommandSandbox;
}

export interface TerminalCommandRunnerOptions {
  /** The terminal's name (the session's). */
  name: string;
  workspaceRoot: string;
  /** Runs a command as a child process (in the sandbox when given). */
  childProcess: (request: ChildCommand) => Promise<CommandResult>;
  /** Starts a command as a child process and leaves it running (in the sandbox when given). */
  startChild: (request: ChildStart) => Promise<StartedCommand>;
  /** The sandbox `command`, about to run in `cwd` (absolute), goes into, if any (the `auto` mode). */
  sandboxFor: (command: string, cwd: string, signal: AbortSignal) => Promise<CommandSandbox | undefined>;
  clock: Clock;
  /** The output without colours and shell-integration sequences, which the model does not need (a Node function, passed in). */
  plainText: (output: string) => string;
}

const SHELL_INTEGRATION_WAIT_MS = 4000;
/** After Ctrl-C, how long a command may take to end before its terminal is given up. */
const INTERRUPT_GRACE_MS = 2000;
const MAX_OUTPUT_CHARS = 200_000;

export class TerminalCommandRunner implements CommandRunner, vscode.Disposable {
  private terminal: vscode.Terminal | undefined;
  private fallbackTerminal: { terminal: vscode.Terminal; write: (text: string) => void } | undefined;
  /** Shell integration did not come up once: later commands go straight to a child process, without the wait. */
  private integrationUnavailable = false;
  /** The last integrated command's end (or its terminal's abandonment): the next line must not be typed into it. */
  private previousCommand: Promise<unknown> = Promise.resolve();
  private readonly backgroundTerminals = new Set<vscode.Terminal>();

  constructor(private readonly options: TerminalCommandRunnerOptions) {}

  async run(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<CommandResult> {
    const absoluteCwd = this.absolute(cwd);
    await this.previousCommand;
    signal.throwIfAborted();
    const sandbox = await this.options.sandboxFor(command, absoluteCwd, signal);
    signal.throwIfAborted();
    if (sandbox) return this.runAsChild(command, absoluteCwd, timeoutMs, signal, sandbox);
    const shell = this.integrationUnavailable ? undefined : await this.shellIntegration(absoluteCwd);
    signal.throwIfAborted();
    if (!shell) return this.runAsChild(command, absoluteCwd, timeoutMs, signal);
    const kind = shellKindOf(shell.terminal.state.shell, vscode.env.shell);
    return this.runIntegrated(shell.terminal, shell.integration, commandLineFor(kind, absoluteCwd, command), timeoutMs, signal);
  }

  /**
   * Starts a command that keeps running, always as a child process (typed into the shell it would hold the
   * terminal), in the sandbox when its commands go there, shown in a terminal of its own named after the
   * session. Closing that terminal stops the command.
   */
  async start(request: BackgroundStart): Promise<StartedCommand> {
    const cwd = this.absolute(request.cwd);
    const sandbox = await this.options.sandboxFor(request.command, cwd, request.signal);
    request.signal.throwIfAborted();
    const shown = outputTerminal(`${this.options.name} (background)`);
    this.backgroundTerminals.add(shown.terminal);
    shown.write(`\x1b[1m$ ${request.command}\x1b[0m \x1b[2m(in the background${sandbox ? ', sandboxed' : ''})\x1b[0m\r\n`);
    const onOutput = (text: string) => {
      request.onOutput(text);
      shown.write(text.replace(/\r?\n/g, '\r\n'));
    };
    let started: StartedCommand;
    try {
      started = await this.options.startChild({ ...request, cwd, onOutput, sandbox });
    } catch (error) {
      shown.write(`\r\n\x1b[2m[could not start: ${error instanceof Error ? error.message : String(error)}]\x1b[0m\r\n`);
      throw error;
    }
    void started.ended.then((exitCode) => shown.write(`\r\n\x1b[2m[ended, exit code ${exitCode ?? 'none'}]\x1b[0m\r\n`));
    void shown.closed.then(() => started.stop());
    return started;
  }

  private absolute(cwd: string): string {
    return cwd === '.' || cwd === '' ? this.options.workspaceRoot : `${this.options.workspaceRoot}/${cwd}`;
  }

  private async shellIntegration(cwd: string): Promise<{ terminal: vscode.Terminal; integration: vscode.TerminalShellIntegration } | undefined> {
    if (!this.terminal || this.terminal.exitStatus !== undefined) {
      // No pager: it would wait for keys nobody presses, and ignores Ctrl-C.
      const env = { PAGER: 'cat', GIT_PAGER: 'cat' };
      this.terminal = vscode.window.createTerminal({ name: this.options.name, cwd, env, iconPath: new vscode.ThemeIcon('hubot') });
    }
    const terminal = this.terminal;
    terminal.show(true);
    const integration = terminal.shellIntegration ?? (await waitForIntegration(terminal));
    if (integration) return { terminal, integration };
    // An idle shell next to the fallback's terminal of the same name would only confuse.
    this.integrationUnavailable = true;
    this.forget(terminal);
    return undefined;
  }

  /**
   * Runs through shell integration. Once a command is sent it is never sent a
   * second way (that could run it twice): the wait ends with the execution's
   * end event, the close of its output, the terminal closing, the timeout, or
   * a stop (see superviseExecution).
   */
  private async runIntegrated(
    terminal: vscode.Terminal,
    integration: vscode.TerminalShellIntegration,
    line: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<CommandResult> {
    // Not wrapped in a subshell: shell integration does not report a line that starts with "(".
    // A command that exits the shell closes the terminal, which ends the wait; the next command gets a new one.
    const execution = integration.executeCommand(line);
    // Some hosts hand events a different wrapper of the same execution: match the terminal and the line too.
    const isOurs = (event: { terminal: vscode.Terminal; execution: vscode.TerminalShellExecution }) =>
      event.execution === execution || (event.terminal === terminal && event.execution.commandLine.value === execution.commandLine.value);
    let resolveEnded: (exitCode: number | undefined) => void = () => undefined;
    const ended = new Promise<number | undefined>((resolve) => (resolveEnded = resolve));
    this.previousCommand = ended;
    const subscriptions = [
      vscode.window.onDidEndTerminalShellExecution((event) => isOurs(event) && resolveEnded(event.exitCode)),
      // The user closed the terminal: the command is over, with no exit code.
      vscode.window.onDidCloseTerminal((closed) => closed === terminal && resolveEnded(undefined)),
    ];
    // Kept past a stop, which returns at once: the end event still decides whether the terminal is abandoned.
    void ended.then(() => subscriptions.forEach((subscription) => subscription.dispose()));
    let output = '';
    const reading = (async () => {
      for await (const data of execution.read()) output = (output + data).slice(-MAX_OUTPUT_CHARS);
    })();
    // The output stream closes when the command ends; give the exit-code event a moment after that.
    void reading
      .then(() => this.options.clock.sleep(2000))
      .then(
        () => resolveEnded(undefined),
        () => undefined,
      );
    const control = {
      ended,
      interrupt: () => terminal.sendText('\u0003', false),
      abandon: () => {
        this.forget(terminal);
        resolveEnded(undefined);
      },
    };
    const { exitCode, timedOut } = await superviseExecution(control, { timeoutMs, graceMs: INTERRUPT_GRACE_MS, signal, clock: this.options.clock });
    await Promise.race([reading, this.options.clock.sleep(500)]);
    return { exitCode, output: this.options.plainText(output), timedOut };
  }

  /** Closes a terminal that is no longer usable; the next command creates a new one. */
  private forget(terminal: vscode.Terminal): void {
    if (this.terminal === terminal) this.terminal = undefined;
    terminal.dispose();
  }

  private async runAsChild(command: string, cwd: string, timeoutMs: number, signal: AbortSignal, sandbox?: CommandSandbox): Promise<CommandResult> {
    const shown = this.fallback();
    shown.write(`\r\n\x1b[1m$ ${command}\x1b[0m${sandbox ? ' \x1b[2m(sandboxed)\x1b[0m' : ''}\r\n`);
    const onOutput = (text: string) => shown.write(text.replace(/\r?\n/g, '\r\n'));
    const result = await this.options.childProcess({ command, cwd, timeoutMs, signal, onOutput, sandbox });
    shown.write(`\r\n\x1b[2m[exit code ${result.exitCode ?? 'none'}${result.timedOut ? ', timed out' : ''}]\x1b[0m\r\n`);
    return result;
  }

  /** A terminal that only displays what the child processes print. */
  private fallback(): { write: (text: string) => void } {
    if (this.fallbackTerminal && this.fallbackTerminal.terminal.exitStatus === undefined) return this.fallbackTerminal;
    this.fallbackTerminal = outputTerminal(this.options.name);
    return this.fallbackTerminal;
  }

  dispose(): void {
    this.terminal?.dispose();
    this.fallbackTerminal?.terminal.dispose();
    // Closing a background command's terminal stops the command.
    for (const terminal of this.backgroundTerminals) terminal.dispose();
  }
}

/** A shown terminal that only displays what is written to it; `closed` resolves when the user (or dispose) closes it. */
function outputTerminal(name: string): { terminal: vscode.Terminal; write: (text: string) => void; closed: Promise<void> } {
  const writer = new vscode.EventEmitter<string>();
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  // A pseudoterminal ignores writes until it is opened: hold them until then.
  let pending: string[] | undefined = [];
  const pty: vscode.Pseudoterminal = {
    onDidWrite: writer.event,
    open: () => {
      for (const text of pending ?? []) writer.fire(text);
      pending = undefined;
    },
    close: () => {
      writer.dispose();
      onClosed();
    },
  };
  const terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('hubot') });
  terminal.show(true);
  return { terminal, write: (text) => (pending ? pending.push(text) : writer.fire(text)), closed };
}

/** The terminal's shell integration, or undefined when it does not come up within a few seconds. */
function waitForIntegration(terminal: vscode.Terminal): Promise<vscode.TerminalShellIntegration | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(undefined);
    }, SHELL_INTEGRATION_WAIT_MS);
    const listener = vscode.window.onDidChangeTerminalShellIntegration((event) => {
      if (event.terminal !== terminal) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(event.shellIntegration);
    });
  });
}
