/**
 * `@gateway /plan <task>` (issue #40, plan first): a read-only planning session in the chat turn. Its tool
 * calls show as progress; its answer is shown as the numbered plan it parses to (the model's text is not
 * streamed: what it says between reads is not the plan), then **Start**, **Start in a New Worktree** and **Edit Plan…**
 * (agent/vscode/planCommands.ts). A later message in the conversation refines the same plan.
 */
import * as vscode from 'vscode';
import { agentExtras, inlineCode, isPlanningSession } from '../../agent/common';
import { NO_FOLDER_MESSAGE, OPEN_FOLDER_COMMAND, type AgentSessionState } from '../../sessionModel/common';
import { openFolders, PLAN_EDIT_COMMAND, PLAN_START_COMMAND, PLAN_START_IN_WORKTREE_COMMAND, type SessionSink } from '../../agent/vscode';
import { toAbortSignal } from '../../base/vscode';
import { sessionTurn, type AgentChatResult, type AgentTurnDeps } from './agentTurn';

/** Whether `sessionId` (a conversation's session) is a planning session: its follow-ups refine the plan. */
export async function isPlanConversation(agent: AgentTurnDeps, sessionId: string | undefined): Promise<boolean> {
  if (sessionId === undefined) return false;
  const saved = await agent.sessions.store.load(sessionId).catch(() => undefined);
  return saved !== undefined && isPlanningSession(saved);
}

export async function runPlanTurn(
  agent: AgentTurnDeps,
  input: { prompt: string; previous?: string; toolInvocationToken?: vscode.ChatParticipantToolToken },
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<AgentChatResult> {
  const task = input.prompt.trim();
  const { previous } = input;
  if (!task && !previous) {
    stream.markdown(
      'Give the task to plan, for example `@gateway /plan add retries to the HTTP client`. The agent reads the workspace (no changes, no commands) and answers with a numbered plan you can edit, then **Start**.',
    );
    return { metadata: { command: 'plan' } };
  }
  if (openFolders().length === 0) {
    stream.markdown(NO_FOLDER_MESSAGE);
    stream.button({ title: 'Open Folder', command: OPEN_FOLDER_COMMAND });
    return { metadata: { command: 'plan', sessionId: previous } };
  }
  const signal = toAbortSignal(token);
  // The model's text is held back: the plan it parses to is shown when it is done.
  const quiet = (sink: SessionSink): SessionSink => ({ ...sink, onEvent: (event, root) => (event.type === 'text' ? undefined : sink.onEvent(event, root)) });
  const result = await sessionTurn(agent, { stream, signal, previous, toolInvocationToken: input.toolInvocationToken }, (sink) =>
    previous ? agent.sessions.continue(previous, task || undefined, quiet(sink), signal) : agent.sessions.plan(task, quiet(sink), signal),
  );
  const sessionId = result.metadata.sessionId;
  if (result.metadata.stopped || sessionId === undefined || signal.aborted) return { ...result, metadata: { ...result.metadata, command: 'plan' } };
  const state = await agent.sessions.store.load(sessionId).catch(() => undefined);
  if (state) showPlan(state, stream);
  return { ...result, metadata: { ...result.metadata, command: 'plan' } };
}

/** The plan as a numbered list with its buttons, or the answer as it came when it holds no numbered plan. */
function showPlan(state: AgentSessionState, stream: vscode.ChatResponseStream): void {
  const { parsePlanText, planAnswerOf } = agentExtras();
  const answer = planAnswerOf(state);
  const steps = parsePlanText(answer);
  if (steps.length === 0) {
    if (answer.trim()) stream.markdown(new vscode.MarkdownString(`\n\n${answer.trim()}\n\n`));
    stream.markdown('\n\n_No numbered plan in this answer (`1. …`): ask again in this conversation to get one._\n\n');
    return;
  }
  // Each step as the model wrote it, its Markdown shown as written (a link or an image in a step is only text).
  stream.markdown(
    `\n\n**Plan** (${steps.length} ${steps.length === 1 ? 'step' : 'steps'})\n\n${steps.map((step, i) => `${i + 1}. ${inlineText(step)}`).join('\n')}\n\n`,
  );
  stream.button({ title: 'Start', command: PLAN_START_COMMAND, arguments: [state.id] });
  // Offered even where no worktree can be made: its click says why and offers Start Here (a Git repository may come later).
  stream.button({ title: 'Start in a New Worktree', command: PLAN_START_IN_WORKTREE_COMMAND, arguments: [state.id] });
  stream.button({ title: 'Edit Plan…', command: PLAN_EDIT_COMMAND, arguments: [state.id] });
  stream.markdown(
    `\n\n_Start runs an agent session in this folder with this plan as its todo list; Start in a New Worktree runs it in a Git worktree of its own. Edit Plan… opens it as a document: Start then uses what you wrote. Reply here to refine it; ${inlineCode('@gateway /agent')} starts from scratch._\n\n`,
  );
}

function inlineText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (char) => `\\${char}`);
}
