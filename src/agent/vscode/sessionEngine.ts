/**
 * The engine of one agent run, wired to VS Code: the tools (built-in ones by
 * workspace trust, plus the VS Code tools the user enabled), the approvals, the
 * editors' files, the session's terminal, and the sandbox decision of its commands.
 */
import * as vscode from 'vscode';
import { systemClock, type Logger, type WorkspaceFiles } from '../../base/common';
import type { GatewayClient } from '../../gateway/common';
import type { ModelWindows } from '../../models/common';
import { BackgroundCommands, toolsFor } from '../../tools/common';
import { projectKindEnabled, type AgentSettings } from '../../settings/common';
import type { SandboxDecision } from '../../terminal/common';
import { TerminalCommandRunner } from '../../terminal/vscode';
import { hostToolsFor, prepareMcpTools, VsCodeFileChanges, VsCodeWorkspaceFiles, VsCodeLanguageServices } from '../../tools/vscode';
import { AgentEngine } from '../common/engine/engine';
import type { SessionHooks } from '../../customization/common';
import type { HomeSkills } from '../../customization/common';
import { customizationParts } from '../../customization/common';
import { AGENT_INSTRUCTIONS } from '../../customization/common';
import { agentMaySubagent, limitTools } from '../common/engine/agentTools';
import { instructionsWith } from '../common/engine/sessionAgent';
import type { LocalMachine } from '../common/sessions/localMachine';
import { CHECKPOINT_MAX_BYTES, type SavedSessions, type SessionCheckpoints } from '../common/sessions/sessionCheckpoints';
import { sessionPolicy } from '../common/sessions/sessionPolicy';
import type { SessionRoot } from '../../sessionModel/common';
import type { AgentSessionState } from '../../sessionModel/common';
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
  /** Where approved hooks are remembered (by content). */
  globalState?: vscode.Memento;
}

export class SessionEngines implements vscode.Disposable {
  private readonly terminals = new Map<string, TerminalCommandRunner>();
  /** Per session, the commands its run started in the background; stopped when the run ends (endRun). */
  private readonly background = new Map<string, BackgroundCommands>();

  constructor(private readonly options: SessionEnginesOptions) {}

  /** `toolInvocationToken`: the chat request's (opaque here), when a chat request shows the run. */
  engineFor(state: AgentSessionState, sessionRoot: SessionRoot, referencedTools: readonly string[], toolInvocationToken?: unknown): AgentEngine {
    const { machine, sandbox, logger, context, workspaceState } = this.options;
    const root = vscode.Uri.parse(sessionRoot.uri);
    const settings = this.options.settings();
    const disk = machine.files(root.fsPath);
    const terminal = this.terminalFor(state, root.fsPath);
    const builtIns = toolsFor(vscode.workspace.isTrusted);
    const files = new VsCodeWorkspaceFiles(disk, root);
    const homeSkills = this.homeSkillsFor(settings);
    // Offered once the run's first look found home skills (before its first request), so the definitions stay the same within the run.
    const homeSkillTools = () => (homeSkills && homeSkills.skills.length > 0 ? [homeSkills.tool()] : []);
    // Chosen once per run: the definitions must not change between the requests of a run.
    const hostTools = workspaceState
      ? hostToolsFor({
          state: workspaceState,
          referenced: referencedTools,
          builtIns,
          allowed: () => this.options.settings().allowedTools,
          clock: systemClock,
          logger,
          toolInvocationToken: toolInvocationToken as vscode.ChatParticipantToolToken | undefined,
        })
      : [];
    return new AgentEngine({
      client: this.options.client,
      store: this.options.store,
      approver: this.options.approvals.forSession(root),
      // A custom agent's list narrows whatever is offered, run after run: it is read from the saved session, never from the model.
      tools: () =>
        limitTools(
          vscode.workspace.isTrusted ? [...builtIns, ...hostTools, ...homeSkillTools()] : [...toolsFor(false), ...homeSkillTools()],
          state.agent?.tools,
        ),
      toolContext: {
        files,
        changes: new VsCodeFileChanges(root, machine.fileChanges(root.fsPath)),
        commands: terminal,
        background: this.backgroundFor(state.id, terminal),
        protectedFiles: settings.protectedFiles,
        logger,
        search: machine.search(root.fsPath),
        controlGuard: sandbox.controlGuardFor(state.id, root.fsPath),
        languages: new VsCodeLanguageServices(root),
      },
      policy: () => sessionPolicy(sandbox, { id: state.id, root: root.fsPath }, this.options.settings()),
      budgets: () => this.options.settings().budgets,
      instructions: instructionsWith(AGENT_INSTRUCTIONS, state.agent),
      projectInstructions: settings.projectInstructions,
      // A custom agent's list narrows this tool too: run_subagent only when it names it (`agent`, `Task`, `*`).
      subagents: settings.subagents && agentMaySubagent(state.agent?.tools),
      projectKinds: settings.projectKinds,
      homeSkills,
      hooks: this.hooksFor(state.id, root, files),
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

  /** The user's home skills, when skills are on (under the master switch). */
  private homeSkillsFor(settings: AgentSettings): HomeSkills | undefined {
    const home = projectKindEnabled(settings, 'skills') ? this.options.machine.homeFiles?.() : undefined;
    return home && new (customizationParts().HomeSkills)(home, settings.protectedFiles, this.options.logger);
  }

  /**
   * The workspace's and the user's home folder's hooks for this run: only in a trusted workspace, with hooks on, each run after the user
   * approved it (the session's approver, remembered by content in the global state); in the sandbox under `auto`.
   */
  private hooksFor(sessionId: string, root: vscode.Uri, files: WorkspaceFiles): SessionHooks | undefined {
    const { machine, sandbox, logger, globalState, approvals } = this.options;
    const settings = this.options.settings();
    if (!globalState || !machine.hookHost || !machine.hookFiles || !projectKindEnabled(settings, 'hooks')) return undefined;
    if (!vscode.workspace.isTrusted) {
      logger.info(`agent session ${sessionId}: hooks are not looked for: the workspace is not trusted.`);
      return undefined;
    }
    const { hookApprovalsThrough, SessionHooks } = customizationParts();
    const rootPath = root.fsPath;
    const host = machine.hookHost(rootPath, (command, cwd, signal) => sandbox.sandboxFor({ sessionId, root: rootPath, command, cwd }, signal));
    const approver = approvals.forSession(root);
    // An approval covers the files each hook's line names, read from the disk (not an unsaved editor: the shell runs the disk's).
    const hookFiles = machine.hookFiles(rootPath);
    const hookApprovals = hookApprovalsThrough({ approver, memory: globalState, host, files: hookFiles, sessionId, clock: systemClock });
    return new SessionHooks({
      files,
      protectedFiles: settings.protectedFiles,
      host,
      approvals: hookApprovals,
      sessionId,
      root: rootPath,
      // A VS Code hook file's line for this system (its `linux`, `osx` or `windows` override), as VS Code would run it here.
      platform: machine.platform,
      clock: systemClock,
      logger,
      // The user's own hook files (~/.claude/settings.json …), approved like the workspace's.
      homeFiles: machine.homeFiles?.(),
      // What run_command has under `auto`: a sandboxed hook may not leave a .git or .vscode behind either.
      controlGuard: sandbox.controlGuardFor(sessionId, rootPath),
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

  /** Before a run: the MCP servers of the tools it wants are started (bounded); the note says what it has. */
  prepareRun(referencedTools: readonly string[], signal: AbortSignal): Promise<string | undefined> {
    const { workspaceState } = this.options;
    return workspaceState ? prepareMcpTools(workspaceState, referencedTools, systemClock, signal) : Promise.resolve(undefined);
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
