/**
 * The engine of one agent run, wired to VS Code: the tools (built-in ones by
 * workspace trust, plus the VS Code tools the user enabled), the approvals, the
 * editors' files, the session's terminal, and the sandbox decision of its commands.
 */
import * as vscode from 'vscode';
import { systemClock, type Logger } from '../../base/common';
import type { GatewayClient, ModelWindows } from '../../gateway/common';
import { BackgroundCommands, toolsFor } from '../../tools/common';
import type { AgentSettings } from '../../settings/common';
import type { SandboxDecision } from '../../terminal/common';
import { TerminalCommandRunner } from '../../terminal/vscode';
import { hostToolsFor, VsCodeFileChanges, VsCodeWorkspaceFiles, VsCodeLanguageServices } from '../../tools/vscode';
import { AgentEngine } from '../common/engine';
import { AGENT_INSTRUCTIONS } from '../common/instructions';
import { limitTools } from '../common/agentTools';
import { instructionsWith } from '../common/sessionAgent';
import type { LocalMachine } from '../common/localMachine';
import { CHECKPOINT_MAX_BYTES, type SavedSessions, type SessionCheckpoints } from '../common/sessionCheckpoints';
import { sessionPolicy } from '../common/sessionPolicy';
import type { SessionRoot } from '../common/sessionRoot';
import type { AgentSessionState } from '../common/sessionState';
import type { ApprovalBroker } from './approvalBroker';

/** What sessions need to know of context windows and the key's token budget. */
export interface ContextLimits {
  windows: ModelWindows;
  /** The key's tokens per minute as the client knows it now. */
  tokensPerMinute: () => number | undefined;
  /** Asked before each agent request: undefined lets it go, a text stops the session with it (the daily budget). */
  spendGate?: (signal: AbortSignal) => Promise<string | undefined>;
}

export interface SessionEnginesOptions {
  client: GatewayClient;
  store: SavedSessions;
  approvals: ApprovalBroker;
  machine: LocalMachine;
  checkpoints: SessionCheckpoints;
  sandbox: SandboxDecision;
  settings: () => AgentSettings;
  logger: Logger;
  context?: ContextLimits;
  /** Where the tools the user enabled for the agent are remembered (the workspace's state). */
  workspaceState?: vscode.Memento;
}

export class SessionEngines implements vscode.Disposable {
  private readonly terminals = new Map<string, TerminalCommandRunner>();
  /** Per session, the commands its run started in the background; stopped when the run ends (endRun). */
  private readonly background = new Map<string, BackgroundCommands>();

  constructor(private readonly options: SessionEnginesOptions) {}

  engineFor(state: AgentSessionState, sessionRoot: SessionRoot, referencedTools: readonly string[]): AgentEngine {
    const { machine, sandbox, logger, context, workspaceState } = this.options;
    const root = vscode.Uri.parse(sessionRoot.uri);
    const settings = this.options.settings();
    const disk = machine.files(root.fsPath);
    const terminal = this.terminalFor(state, root.fsPath);
    const builtIns = toolsFor(vscode.workspace.isTrusted);
    // Chosen once per run: the definitions must not change between the requests of a run.
    const hostTools = workspaceState
      ? hostToolsFor(workspaceState, referencedTools, builtIns, () => this.options.settings().allowedTools, systemClock, logger)
      : [];
    return new AgentEngine({
      client: this.options.client,
      store: this.options.store,
      approver: this.options.approvals.forSession(root),
      // A custom agent's list narrows whatever is offered, run after run: it is read from the saved session, never from the model.
      tools: () => limitTools(vscode.workspace.isTrusted ? [...builtIns, ...hostTools] : toolsFor(false), state.agent?.tools),
      toolContext: {
        files: new VsCodeWorkspaceFiles(disk, root),
        changes: new VsCodeFileChanges(root, machine.fileChanges(root.fsPath)),
        commands: terminal,
        background: this.backgroundFor(state.id, terminal),
        protectedFiles: settings.protectedFiles,
        logger,
        search: machine.search(root.fsPath),
        controlGuard: sandbox.controlGuardFor(state.id, root.fsPath),
        languages: new VsCodeLanguageServices(root),
      },
      policy: () => sessionPolicy(sandbox, state.id, this.options.settings()),
      budgets: () => this.options.settings().budgets,
      instructions: instructionsWith(AGENT_INSTRUCTIONS, state.agent),
      projectInstructions: settings.projectInstructions,
      clock: systemClock,
      logger,
      ...(context
        ? {
            modelLimits: (model: string) => context.windows.limitsOf(model),
            learnContextWindow: (model: string, window: number) => context.windows.learn(model, window),
            tokensPerMinute: context.tokensPerMinute,
            spendGate: context.spendGate && ((_state: AgentSessionState, signal: AbortSignal) => context.spendGate!(signal)),
          }
        : {}),
      maxRequestTpmSeconds: () => this.options.settings().maxRequestTpmSeconds,
      checkpoint: async (current, changed, signal) => {
        const { checkpoint, dropped } = await this.options.checkpoints.of(current.id).capture(current, changed, new VsCodeWorkspaceFiles(disk, root), signal);
        for (const gone of dropped) logger.info(`agent session ${current.id}: checkpoint "${gone.label}" dropped to stay under ${CHECKPOINT_MAX_BYTES} bytes`);
        return { checkpoint: { id: checkpoint.id, label: checkpoint.label }, dropped: dropped.map((gone) => gone.label) };
      },
      keepOriginal: (path, before, signal) => this.options.checkpoints.of(state.id).keepOriginal(path, before, signal),
    });
  }

  /** The session's background commands for this run: a run that ended has stopped them all, so each run gets new ones. */
  private backgroundFor(sessionId: string, terminal: TerminalCommandRunner): BackgroundCommands {
    let commands = this.background.get(sessionId);
    if (!commands) {
      commands = new BackgroundCommands({ start: (request) => terminal.start(request), clock: systemClock });
      this.background.set(sessionId, commands);
    }
    return commands;
  }

  /** The session's run ended (finished, stopped, failed, out of budget): every command it left running is stopped. */
  async endRun(sessionId: string): Promise<void> {
    const commands = this.background.get(sessionId);
    this.background.delete(sessionId);
    await commands?.stopAll();
  }

  /** The session's terminal, made at its first run in this window. */
  private terminalFor(state: AgentSessionState, root: string): TerminalCommandRunner {
    let runner = this.terminals.get(state.id);
    if (!runner) {
      const { machine, sandbox } = this.options;
      runner = new TerminalCommandRunner({
        name: `Gateway Agent: ${state.title.slice(0, 40)}`,
        workspaceRoot: root,
        childProcess: (request) => machine.runChildProcess({ ...request, rootPath: root, cwd: relativeTo(root, request.cwd) }),
        startChild: (request) => machine.startChildProcess({ ...request, rootPath: root, cwd: relativeTo(root, request.cwd) }),
        sandboxFor: (command, cwd, signal) => sandbox.sandboxFor({ sessionId: state.id, root, command, cwd }, signal),
        clock: systemClock,
        plainText: (output) => machine.plainTerminalText(output),
      });
      this.terminals.set(state.id, runner);
    }
    return runner;
  }

  /** The window closes (deactivate): every background command gets its stop (SIGTERM now, SIGKILL after the grace). */
  dispose(): void {
    for (const id of [...this.background.keys()]) void this.endRun(id);
    for (const terminal of this.terminals.values()) terminal.dispose();
  }
}

function relativeTo(root: string, absolute: string): string {
  return absolute === root ? '.' : absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : '.';
}
