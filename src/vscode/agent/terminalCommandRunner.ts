/**
 * Runs the agent's commands where the user sees them: in a terminal named after
 * the session, through shell integration (output read from the execution, exit
 * code from onDidEndTerminalShellExecution). When shell integration does not
 * come up within a few seconds, the command runs as a child process and its
 * output is shown in a terminal of the same name.
 */
import * as vscode from 'vscode';
import type { CommandResult, CommandRunner } from '../../core/ports';

const SHELL_INTEGRATION_WAIT_MS = 4000;
/** How long a command sent through shell integration may take to start before the child process takes over. */
const EXECUTION_START_WAIT_MS = 4000;
const MAX_OUTPUT_CHARS = 200_000;

export class TerminalCommandRunner implements CommandRunner, vscode.Disposable {
  private terminal: vscode.Terminal | undefined;
  private fallbackTerminal: { terminal: vscode.Terminal; write: (text: string) => void } | undefined;
  private integrationWorks = true;

  constructor(
    private readonly name: string,
    private readonly workspaceRoot: string,
    /** Runs a command as a child process; streams its output to `onOutput`. */
    private readonly childProcess: (command: string, cwd: string, timeoutMs: number, signal: AbortSignal, onOutput: (text: string) => void) => Promise<CommandResult>,
  ) {}

  async run(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<CommandResult> {
    const absoluteCwd = cwd === '.' || cwd === '' ? this.workspaceRoot : `${this.workspaceRoot}/${cwd}`;
    const shell = this.integrationWorks ? await this.shellIntegration(absoluteCwd) : undefined;
    if (shell) {
      const result = await this.runIntegrated(shell.terminal, shell.integration, command, absoluteCwd, timeoutMs, signal);
      if (result) return result;
      // This terminal reports shell integration but did not run the command: use child processes from now on.
      this.integrationWorks = false;
    }
    return this.runAsChild(command, absoluteCwd, timeoutMs, signal);
  }

  private async shellIntegration(cwd: string): Promise<{ terminal: vscode.Terminal; integration: vscode.TerminalShellIntegration } | undefined> {
    if (this.terminal && this.terminal.exitStatus === undefined && this.terminal.shellIntegration) {
      return { terminal: this.terminal, integration: this.terminal.shellIntegration };
    }
    if (!this.terminal || this.terminal.exitStatus !== undefined) {
      this.terminal = vscode.window.createTerminal({ name: this.name, cwd, iconPath: new vscode.ThemeIcon('hubot') });
    }
    const terminal = this.terminal;
    terminal.show(true);
    if (terminal.shellIntegration) return { terminal, integration: terminal.shellIntegration };
    const integration = await new Promise<vscode.TerminalShellIntegration | undefined>((resolve) => {
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
    return integration ? { terminal, integration } : undefined;
  }

  /**
   * Runs through shell integration; undefined when the terminal never started
   * the command (some hosts report integration but do not run what is sent),
   * so the caller can fall back to a child process.
   */
  private async runIntegrated(
    terminal: vscode.Terminal,
    integration: vscode.TerminalShellIntegration,
    command: string,
    cwd: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<CommandResult | undefined> {
    // A subshell, so `exit 3` or `cd elsewhere` in the command cannot end or move the user's terminal.
    const line = `(cd ${shellQuote(cwd)} && ${command})`;
    const sameExecution = (event: { terminal: vscode.Terminal; execution: vscode.TerminalShellExecution }, execution: vscode.TerminalShellExecution) =>
      // Some hosts hand events a different wrapper of the same execution: match the terminal and the line too.
      event.execution === execution || (event.terminal === terminal && event.execution.commandLine.value === execution.commandLine.value);
    const subscriptions: vscode.Disposable[] = [];
    let resolveStarted: (started: boolean) => void = () => undefined;
    let resolveEnded: (exitCode: number | undefined) => void = () => undefined;
    const started = new Promise<boolean>((resolve) => (resolveStarted = resolve));
    const ended = new Promise<number | undefined>((resolve) => (resolveEnded = resolve));
    const execution = integration.executeCommand(line);
    subscriptions.push(
      vscode.window.onDidStartTerminalShellExecution((event) => sameExecution(event, execution) && resolveStarted(true)),
      vscode.window.onDidEndTerminalShellExecution((event) => sameExecution(event, execution) && resolveEnded(event.exitCode)),
      // The user closed the terminal: the command is over, with no exit code.
      vscode.window.onDidCloseTerminal((closed) => closed === terminal && resolveEnded(undefined)),
    );
    let output = '';
    const reading = (async () => {
      for await (const data of execution.read()) {
        resolveStarted(true);
        output = (output + data).slice(-MAX_OUTPUT_CHARS);
      }
    })();
    void reading.then(() => resolveStarted(true), () => undefined);
    let timedOut = false;
    const interrupt = () => terminal.sendText('\u0003', false);
    const timer = setTimeout(() => {
      timedOut = true;
      interrupt();
      // Give Ctrl-C a moment; then stop waiting whatever the terminal does.
      setTimeout(() => resolveEnded(undefined), 5000);
    }, timeoutMs);
    signal.addEventListener('abort', interrupt, { once: true });
    try {
      if (!(await Promise.race([started, delay(EXECUTION_START_WAIT_MS).then(() => false)]))) {
        interrupt();
        return undefined;
      }
      // The output stream closes when the command ends; give the exit-code event a moment after that.
      const exitCode = await Promise.race([ended, reading.then(() => Promise.race([ended, delay(2000).then(() => undefined)]))]);
      await Promise.race([reading, delay(500)]);
      return { exitCode, output: stripAnsi(output), timedOut };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', interrupt);
      for (const subscription of subscriptions) subscription.dispose();
    }
  }

  private async runAsChild(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<CommandResult> {
    const shown = this.fallback();
    shown.write(`\r\n\x1b[1m$ ${command}\x1b[0m\r\n`);
    const result = await this.childProcess(command, cwd, timeoutMs, signal, (text) => shown.write(text.replace(/\r?\n/g, '\r\n')));
    shown.write(`\r\n\x1b[2m[exit code ${result.exitCode ?? 'none'}${result.timedOut ? ', timed out' : ''}]\x1b[0m\r\n`);
    return result;
  }

  /** A terminal that only displays what the child processes print. */
  private fallback(): { write: (text: string) => void } {
    if (this.fallbackTerminal && this.fallbackTerminal.terminal.exitStatus === undefined) return this.fallbackTerminal;
    const writer = new vscode.EventEmitter<string>();
    // A pseudoterminal ignores writes until it is opened: hold them until then.
    let pending: string[] | undefined = [];
    const pty: vscode.Pseudoterminal = {
      onDidWrite: writer.event,
      open: () => {
        for (const text of pending ?? []) writer.fire(text);
        pending = undefined;
      },
      close: () => writer.dispose(),
    };
    const terminal = vscode.window.createTerminal({ name: this.name, pty, iconPath: new vscode.ThemeIcon('hubot') });
    terminal.show(true);
    this.fallbackTerminal = { terminal, write: (text) => (pending ? pending.push(text) : writer.fire(text)) };
    return this.fallbackTerminal;
  }

  dispose(): void {
    this.terminal?.dispose();
    this.fallbackTerminal?.terminal.dispose();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Terminal output carries colours and shell-integration sequences the model does not need. */
function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}
