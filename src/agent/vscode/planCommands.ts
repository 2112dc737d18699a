/**
 * Plan first (issue #40): "Gateway: Plan Before Acting…" (`gateway.plan.create`) runs a read-only planning
 * session and opens its plan as an untitled Markdown document; `gateway.plan.edit` opens a plan (a chat
 * turn's) there; `gateway.plan.start (planSessionId, editedPlanText?)` runs a normal session with the plan
 * as its todo list: the text given, else the plan's open document as the user edited it, else the plan as
 * the model wrote it, in the workspace folder; `gateway.plan.startInWorktree` (same arguments) runs it in a worktree
 * of its own, made as for a session started with sessionPlace=worktree. Where none can be made (no Git repository,
 * no commit) it says why and offers Start Here. A plan starts once: a second Start of either kind (an old button)
 * says so and does nothing.
 */
import * as vscode from 'vscode';
import type { AgentSessionState } from '../../sessionModel/common';
import { planStartNoLongerApplies, sessionIdOf } from '../../sessionModel/common';
import { isPlanningSession } from '../common/engine/sessionAgent';
import { agentExtras } from '../common/sessions/agentExtrasLoader';
import type { AgentSessions, SessionSink } from './agentSessions';

export const PLAN_START_COMMAND = 'gateway.plan.start';
export const PLAN_START_IN_WORKTREE_COMMAND = 'gateway.plan.startInWorktree';
export const PLAN_EDIT_COMMAND = 'gateway.plan.edit';
export const START_HERE = 'Start Here';
const STARTED_KEY = 'gateway.plan.started';

export interface PlanCommandsDeps {
  sessions: AgentSessions;
  /** Runs a session from the palette: the output, a progress notification with Cancel, the end's notice. */
  runInBackground: (work: (sink: SessionSink, signal: AbortSignal) => Promise<AgentSessionState>, doing: string) => Thenable<AgentSessionState>;
  /** Shows a command's failure with its fixes (ErrorPresenter.guard). */
  guarded: (run: (...args: unknown[]) => Promise<unknown>) => (...args: unknown[]) => Promise<unknown>;
  hasFolder: () => Promise<boolean>;
  /** Where the started plans are remembered (the workspace's state), so an old Start stays refused after a reload. */
  workspaceState?: vscode.Memento;
}

export function registerPlanCommands(deps: PlanCommandsDeps): vscode.Disposable[] {
  const { sessions, guarded } = deps;
  const drafts = new Map<string, vscode.TextDocument>();
  const started = new Map<string, string>(Object.entries(deps.workspaceState?.get<Record<string, string>>(STARTED_KEY) ?? {}));

  const openDraft = async (plan: AgentSessionState): Promise<vscode.TextDocument | undefined> => {
    const { parsePlanText, planAnswerOf, planDocument, planTaskOf } = agentExtras();
    const open = drafts.get(plan.id);
    const steps = parsePlanText(planAnswerOf(plan));
    if (steps.length === 0) {
      void vscode.window.showWarningMessage('The planning session gave no numbered plan ("1. …"). Ask again with `@gateway /plan <task>`.');
      return undefined;
    }
    const document =
      open && !open.isClosed ? open : await vscode.workspace.openTextDocument({ language: 'markdown', content: planDocument(planTaskOf(plan), steps) });
    drafts.set(plan.id, document);
    await vscode.window.showTextDocument(document, { preview: false });
    void vscode.window
      .showInformationMessage(`Edit the plan in the document (one numbered step a line), then Start.`, 'Start', 'Start in a New Worktree')
      .then((picked) =>
        picked === 'Start'
          ? vscode.commands.executeCommand(PLAN_START_COMMAND, plan.id)
          : picked === 'Start in a New Worktree'
            ? vscode.commands.executeCommand(PLAN_START_IN_WORKTREE_COMMAND, plan.id)
            : undefined,
      );
    return document;
  };

  const loadPlan = async (id: string): Promise<AgentSessionState | undefined> => {
    const saved = await sessions.store.load(id).catch(() => undefined);
    return saved && isPlanningSession(saved) ? saved : undefined;
  };

  /**
   * Start (`folder`) or Start in a New Worktree (`worktree`). Resolves with the session when it ran, with why
   * nothing started when no worktree can be made here (the warning offers Start Here), else undefined.
   */
  const startPlan = async (idArgument: unknown, editedArgument: unknown, place: 'folder' | 'worktree'): Promise<AgentSessionState | string | undefined> => {
    const id = sessionIdOf(idArgument);
    const plan = id !== undefined ? await loadPlan(id) : undefined;
    // A button of an old chat turn or notification: the plan may be gone, still in the making, or started already.
    const stale = planStartNoLongerApplies(plan, id !== undefined && sessions.isRunning(id), id !== undefined ? started.get(id) : undefined);
    if (stale || !plan) return void vscode.window.showInformationMessage(stale ?? 'No plan to start.');
    const { parsePlanText, planAnswerOf, planTaskOf } = agentExtras();
    const draft = drafts.get(plan.id);
    const text = typeof editedArgument === 'string' ? editedArgument : draft && !draft.isClosed ? draft.getText() : planAnswerOf(plan);
    const steps = parsePlanText(text);
    if (steps.length === 0) return void vscode.window.showWarningMessage('The plan has no numbered steps ("1. …"): edit it, then Start again.');
    if (!(await deps.hasFolder())) return undefined;
    if (place === 'worktree') {
      const why = await sessions.places
        .whyNoWorktree(AbortSignal.timeout(10_000))
        .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (why !== undefined) {
        // Not awaited: the command ends here (a test or a script reads why); Start Here starts the same text in the folder.
        void vscode.window
          .showWarningMessage(`The plan cannot start in a new worktree: ${why}`, START_HERE)
          .then((picked) => (picked === START_HERE ? vscode.commands.executeCommand(PLAN_START_COMMAND, plan.id, text) : undefined));
        return why;
      }
    }
    // Marked before the run starts: a second click (either button) while the first starts is refused too.
    const when = `at ${new Date().toLocaleTimeString()}`;
    started.set(plan.id, when);
    void deps.workspaceState?.update(STARTED_KEY, Object.fromEntries([...started].slice(-200)));
    const task = planTaskOf(plan);
    return deps.runInBackground(
      (sink, signal) => sessions.startWithPlan({ task, steps, sink, signal, place }),
      place === 'worktree' ? 'working through the plan in a new worktree… (Cancel stops it)' : 'working through the plan… (Cancel stops it)',
    );
  };

  return [
    vscode.commands.registerCommand(
      'gateway.plan.create',
      guarded(async (taskArgument?: unknown) => {
        if (!(await deps.hasFolder())) return undefined;
        const task =
          typeof taskArgument === 'string'
            ? taskArgument
            : await vscode.window.showInputBox({
                title: 'Gateway: Plan Before Acting',
                prompt: 'What should the plan be for? The agent reads the workspace (no changes, no commands) and answers with a numbered plan.',
                placeHolder: 'e.g. add retries to the HTTP client',
                ignoreFocusOut: true,
              });
        if (!task?.trim()) return undefined;
        const plan = await deps.runInBackground((sink, signal) => sessions.plan(task.trim(), sink, signal), 'planning (read-only)… (Cancel stops it)');
        await openDraft(plan);
        return plan;
      }),
    ),
    vscode.commands.registerCommand(
      PLAN_EDIT_COMMAND,
      guarded(async (idArgument?: unknown) => {
        const id = sessionIdOf(idArgument);
        const plan = id !== undefined ? await loadPlan(id) : undefined;
        if (!plan) return void vscode.window.showInformationMessage(planStartNoLongerApplies(undefined, false, undefined)!);
        return openDraft(plan);
      }),
    ),
    vscode.commands.registerCommand(
      PLAN_START_COMMAND,
      guarded((idArgument?: unknown, editedArgument?: unknown) => startPlan(idArgument, editedArgument, 'folder')),
    ),
    vscode.commands.registerCommand(
      PLAN_START_IN_WORKTREE_COMMAND,
      guarded((idArgument?: unknown, editedArgument?: unknown) => startPlan(idArgument, editedArgument, 'worktree')),
    ),
  ];
}
