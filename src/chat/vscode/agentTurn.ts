/**
 * `@gateway /agent <task>`: runs an agent session inside a chat turn. Text
 * streams as markdown, each tool call gets a progress line, approvals become
 * Approve / Deny buttons the turn waits on, and a summary closes the turn. A
 * later message in the same conversation continues the same session.
 */
import * as vscode from 'vscode';
import { inlineCode } from '../../agent/common';
import { agentMention, agentNamed, mentionOf, type CustomAgent } from '../../customization/common';
import {
  type AgentEvent,
  type StepCheckpoint,
  type AgentSessionState,
  NO_FOLDER_MESSAGE,
  OPEN_FOLDER_COMMAND,
  type ApprovalRequest,
} from '../../sessionModel/common';
import { type AgentSessions, openFolders, type SessionSink, soleFolderName } from '../../agent/vscode';
import { toAbortSignal } from '../../base/vscode';
import { messageOf } from '../../gateway/vscode';
import { PARTICIPANT_ID } from './context';
import { presentApproval, renderAgentEvent } from './agentEventMarkdown';
import type { ThinkingParts } from '../common/thinking';
import { ThinkingStream } from './thinking';
import { WaitLines } from '../common/retryText';
import { AnswersInTurn } from './answersInTurn';
import { settledWithinStop, STOP_GRACE_MS, STOPPED_RUN_UNKNOWN, stoppedRunText } from '../common/stoppedTurn';
import { systemClock } from '../../base/common';
import { summarize } from './sessionSummary';
import { sessionStateTurn } from './sessionStateTurn';
import { isPlanConversation, runPlanTurn } from './planTurn';

export interface AgentChatResult extends vscode.ChatResult {
  /** `stopped`: the user stopped the turn; the session it names is offered a Continue followup. */
  metadata: { command: 'agent' | 'compact' | 'session' | 'plan'; sessionId?: string; failed?: boolean; stopped?: boolean };
}

/** The session an earlier turn of this conversation ran, if any. */
export function sessionOfConversation(context: vscode.ChatContext): string | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID) {
      const sessionId = (turn.result.metadata as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof sessionId === 'string') return sessionId;
    }
  }
  return undefined;
}

/** What an agent turn runs on: the sessions, and the buttons that fix a failure (they read the chosen models). */
export interface AgentTurnDeps {
  sessions: AgentSessions;
  actionsFor: (error: unknown) => vscode.Command[];
  /** Where the steps' thinking is kept for its collapsed parts; without it thinking is not shown. */
  thinking?: ThinkingParts;
}

export async function runAgentTurn(
  agent: AgentTurnDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<AgentChatResult> {
  const { sessions } = agent;
  const conversation = sessionOfConversation(context);
  // Plan first: `/plan` makes a new plan; a plain reply in a plan's conversation refines it; `/agent` there starts afresh.
  const inPlan = await isPlanConversation(agent, conversation);
  const planInput = { prompt: request.prompt, toolInvocationToken: request.toolInvocationToken };
  if (request.command === 'plan') return runPlanTurn(agent, planInput, stream, token);
  if (!request.command && inPlan) return runPlanTurn(agent, { ...planInput, previous: conversation }, stream, token);
  const previous = inPlan && request.command === 'agent' ? undefined : conversation;
  if (request.command === 'compact') return compactTurn(agent, previous, stream, token);
  if (request.command === 'session') return sessionStateTurn(sessions, { prompt: request.prompt, previous }, stream, toAbortSignal(token));
  const task = request.prompt.trim();
  if (!previous && !task) {
    stream.markdown(
      'Give the agent a task, for example `@gateway /agent add a test for parseDuration`. It reads and edits files and runs commands, asking you first as `gateway.agent.approval` says.',
    );
    return { metadata: { command: 'agent' } };
  }
  if (openFolders().length === 0) {
    // Said in the turn, with the way out, instead of failing after the task was typed.
    stream.markdown(NO_FOLDER_MESSAGE);
    stream.button({ title: 'Open Folder', command: OPEN_FOLDER_COMMAND });
    return { metadata: { command: 'agent', sessionId: previous } };
  }
  const signal = toAbortSignal(token);
  // The workspace's agents are read only for a task that starts with @ (a name with spaces is known by them).
  const agents = !previous && task.startsWith('@') ? (await agent.sessions.customAgents.find(signal)).agents : [];
  const mention = previous
    ? undefined
    : agentMention(
        task,
        agents.map((custom) => custom.name),
      );
  if (mention) return startAsAgent(agent, { ...mention, agents }, { stream, signal, toolInvocationToken: request.toolInvocationToken });
  const referencedTools = request.toolReferences.map((reference) => reference.name);
  return sessionTurn(agent, { stream, signal, previous, toolInvocationToken: request.toolInvocationToken }, (sink) =>
    previous ? sessions.continue(previous, task, sink, signal, referencedTools) : sessions.start(task, sink, signal, referencedTools),
  );
}

/** `@gateway /agent @reviewer <task>`: a session started as the workspace's custom agent of that name. */
async function startAsAgent(
  agent: AgentTurnDeps,
  mention: { name: string; task: string; agents: readonly CustomAgent[] },
  turn: ChatTurn,
): Promise<AgentChatResult> {
  const { stream, signal } = turn;
  const { agents } = mention;
  const custom = agentNamed(agents, mention.name);
  if (!custom) {
    const known = agents.map((a) => inlineCode(mentionOf(a.name))).join(', ');
    stream.markdown(`This workspace has no custom agent named ${inlineCode(mention.name)}. ${known ? `Its agents: ${known}.` : AGENT_FOLDERS_HINT}`);
    return { metadata: { command: 'agent' } };
  }
  if (!mention.task) {
    stream.markdown(
      `Give ${inlineCode(mentionOf(custom.name))} a task: ${inlineCode(`@gateway /agent ${mentionOf(custom.name)} <task>`)}. ${custom.description}`,
    );
    return { metadata: { command: 'agent' } };
  }
  const session = agent.sessions.customAgents.asSession(custom);
  return sessionTurn(agent, turn, (sink) => agent.sessions.startAs({ task: mention.task, agent: session, sink, signal }));
}

const AGENT_FOLDERS_HINT =
  'Custom agents are `.github/agents/<name>.agent.md` (or `<name>.md`) and `.claude/agents/<name>.md` files, read while `gateway.agent.projectInstructions` is on.';

/** The chat turn a session runs in: where it writes, its cancellation (the request's token, converted once), the session it continues, and VS Code's token for tool calls. */
export interface ChatTurn {
  stream: vscode.ChatResponseStream;
  signal: AbortSignal;
  previous?: string;
  toolInvocationToken?: vscode.ChatParticipantToolToken;
}

/** A turn that runs a session (`run` starts or continues it with the turn's sink): its steps, approvals and summary in the chat. */
export async function sessionTurn(agent: AgentTurnDeps, turn: ChatTurn, run: (sink: SessionSink) => Promise<AgentSessionState>): Promise<AgentChatResult> {
  const { stream, previous, toolInvocationToken, signal } = turn;
  const checkpoints: StepCheckpoint[] = [];
  const thinking = new ThinkingStream(stream, agent.thinking);
  const answers = new AnswersInTurn(agent.sessions, stream, () => thinking.close());
  const waits = new WaitLines(() => Date.now());
  // The session's folder, known from its first event (a tool starts before it asks): approvals name it.
  let folderName: string | undefined;
  // The session the turn runs: the one it continues, or a new one's once a checkpoint names it.
  let sessionId = previous;
  const sink = {
    // VS Code's own confirmations (MCP tools) then show in this chat rather than as a second modal.
    toolInvocationToken,
    // The user watches this turn: the session's requests go before the sessions nobody watches.
    watched: true,
    onEvent: (event: AgentEvent, root: vscode.Uri) => {
      folderName = vscode.workspace.getWorkspaceFolder(root)?.name ?? root.path.split('/').filter(Boolean).pop();
      if (event.type === 'checkpoint') {
        checkpoints.push(event.checkpoint);
        sessionId = event.sessionId;
      }
      // A step's thinking closes into its part when anything else of the step shows.
      if (event.type === 'reasoning') return thinking.reasoning(event.text);
      if (event.type === 'retry') {
        const line = waits.lineFor(event.notice);
        return void (line && stream.progress(line));
      }
      // The answer was written under the approval when it came: not a second time.
      if (event.type === 'tool_finished' && !event.approved && answers.wrote(event.call.callId)) return;
      thinking.close();
      renderAgentEvent(event, root, stream);
    },
    presenter: (approval: ApprovalRequest) => {
      thinking.close();
      presentApproval(approval, stream, folderName ?? soleFolderName());
      answers.awaiting(approval);
    },
  };
  try {
    // A Stop: VS Code shows nothing the turn writes after it, and keeps the result only if it comes within a second.
    const outcome = await settledWithinStop(run(sink), signal, systemClock, STOP_GRACE_MS);
    if (signal.aborted) return await stoppedResult(agent.sessions, outcome.settled ? outcome.value : sessionId);
    if (!outcome.settled) throw new Error('The session ended without a result.');
    const state = outcome.value;
    sessionId = state.id;
    thinking.close();
    summarize(state, stream, checkpoints);
    return { metadata: { command: 'agent', sessionId: state.id, failed: state.status === 'paused' } };
  } catch (error) {
    thinking.close();
    if (signal.aborted) return await stoppedResult(agent.sessions, sessionId);
    for (const action of agent.actionsFor(error)) stream.button(action);
    return { errorDetails: { message: messageOf(error) }, metadata: { command: 'agent', sessionId, failed: true } };
  } finally {
    answers.dispose();
  }
}

/**
 * A stopped turn's result: its line (the session's state, what it did, the way on) as the result's message, the only
 * part VS Code still shows, and the session for the Continue followup. `session` is the run's state when it settled in
 * time, else the session's id (its saved state is read), else unknown (a new session stopped before its first checkpoint).
 */
async function stoppedResult(sessions: AgentSessions, session: AgentSessionState | string | undefined): Promise<AgentChatResult> {
  const state = typeof session === 'string' ? await sessions.store.load(session).catch(() => undefined) : session;
  // Saved as paused (the engine saves that first) or returned: settled; still running or waiting: pausing.
  const message = state ? stoppedRunText(state, state.status !== 'running' && state.status !== 'awaiting_approval') : STOPPED_RUN_UNKNOWN;
  const sessionId = state?.id ?? (typeof session === 'string' ? session : undefined);
  return { errorDetails: { message }, metadata: { command: 'agent', sessionId, failed: true, stopped: sessionId !== undefined } };
}

/** `@gateway /compact` in a conversation that runs a session: compacts it now. */
async function compactTurn(
  { sessions, actionsFor }: AgentTurnDeps,
  sessionId: string | undefined,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<AgentChatResult> {
  if (!sessionId) {
    stream.markdown('There is no agent session in this conversation to compact. Start one with `@gateway /agent <task>`.');
    return { metadata: { command: 'compact' } };
  }
  try {
    const state = await sessions.compact(sessionId, { onEvent: (event, root) => renderAgentEvent(event, root, stream) }, toAbortSignal(token));
    if (!state.compactions?.length) stream.markdown('Nothing to compact yet.');
    summarize(state, stream);
    return { metadata: { command: 'compact', sessionId } };
  } catch (error) {
    for (const action of actionsFor(error)) stream.button(action);
    return { errorDetails: { message: messageOf(error) }, metadata: { command: 'compact', sessionId, failed: true } };
  }
}
