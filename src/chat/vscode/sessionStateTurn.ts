/**
 * `@gateway /session [id]`: where an agent session stands now, read from what is saved (what the Sessions view
 * shows). A restore started from the chat posts this turn: the chat cannot change its older turn, which still says
 * "Session done" and lists the steps the restore undid, so a new turn says what they are now, with Continue and
 * Undo Restore (as Copilot Chat and Cline show a checkpoint restore in the conversation itself).
 */
import * as vscode from 'vscode';
import { inlineCode, plainMarkdown } from '../../agent/common';
import { latestRestore, RESTORE_FROM_CHAT, restoredHeadline, restoredNextStep } from '../../checkpoints/common';
import type { AgentSessions } from '../../agent/vscode';
import type { AgentChatResult } from './agentTurn';
import { commandLinks } from './sessionSummary';

/** Session ids are the store's file names: letters, digits, `-` and `_`. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The session `/session` is about: the id its text starts with (a restore posts one), else the conversation's. */
export interface SessionAsked {
  /** The request's text: `<id>`, or anything (then the conversation's session is meant). */
  prompt: string;
  previous?: string;
}

export async function sessionStateTurn(
  sessions: AgentSessions,
  asked: SessionAsked,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<AgentChatResult> {
  const word = asked.prompt.trim().split(/\s+/)[0] ?? '';
  const named = SESSION_ID.test(word) && (await sessions.store.load(word)) ? word : undefined;
  const sessionId = named ?? asked.previous;
  if (!sessionId) {
    stream.markdown('There is no agent session in this conversation. Start one with `@gateway /agent <task>`, or open one from the Sessions view.');
    return { metadata: { command: 'session' } };
  }
  const state = await sessions.store.load(sessionId);
  if (!state) {
    stream.markdown(`There is no saved agent session ${inlineCode(sessionId)} any more (it was deleted). Start a new one with \`@gateway /agent <task>\`.`);
    return { metadata: { command: 'session' } };
  }
  const restored = latestRestore(await sessions.checkpoints(sessionId).list(signal));
  const title = `**${plainMarkdown(state.title || sessionId)}**`;
  const said = restored
    ? `${title}: ${plainMarkdown(restoredHeadline(restored, state.status))}\n\n${plainMarkdown(restoredNextStep(restored, state.status))}`
    : `${title}: session ${state.status}${state.statusReason ? `: ${plainMarkdown(state.statusReason)}` : '.'}`;
  const actions: vscode.Command[] = [];
  if (state.status === 'paused' || state.status === 'stopped') actions.push({ title: 'Continue', command: 'gateway.agent.continue', arguments: [sessionId] });
  if (restored?.target.kind === 'step') {
    actions.push({ title: 'Undo Restore', command: 'gateway.agent.restoreCheckpoint', arguments: [sessionId, restored.undo.id, RESTORE_FROM_CHAT] });
  }
  if (state.originals.length > 0) actions.push({ title: 'Review Session Changes', command: 'gateway.agent.reviewChanges', arguments: [sessionId] });
  // One markdown part, the state and its actions together: VS Code folds a finished turn's earlier parts away.
  const links = commandLinks(actions);
  links.value = `${said}\n\n${links.value}`;
  stream.markdown(links);
  // The conversation's next message continues this session, as after any agent turn.
  return { metadata: { command: 'session', sessionId } };
}
