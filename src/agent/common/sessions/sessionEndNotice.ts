/**
 * The notification a session started from the palette ends with (issue 39, item 7): not a bare "is done", but what
 * the chat's summary gives in one line (its model, the files it changed, its tokens) and the actions that apply.
 */
import { counted } from '../../../base/common';
import type { AgentSessionState } from '../../../sessionModel/common';

/** Files named in the line before the rest are counted. */
const FILES_NAMED = 3;

export interface SessionEndAction {
  title: string;
  command: string;
  arguments: unknown[];
}

export interface SessionEndNotice {
  message: string;
  actions: SessionEndAction[];
}

export function sessionEndNotice(state: AgentSessionState): SessionEndNotice {
  const paths = state.originals.map((original) => original.path);
  const named = paths.slice(0, FILES_NAMED).join(', ');
  const files = paths.length === 0 ? 'no files changed' : `${counted(paths.length, 'file')} changed (${named}${paths.length > FILES_NAMED ? ', …' : ''})`;
  const reason = state.statusReason ? `: ${state.statusReason}` : '';
  const message = `Gateway agent: "${state.title}" is ${state.status}${reason} · ${state.model} · ${files} · ${counted(state.usage.totalTokens, 'token')}.`;
  const id = [state.id];
  const actions: SessionEndAction[] = [];
  if (state.status === 'paused' || state.status === 'stopped') actions.push({ title: 'Continue', command: 'gateway.agent.continue', arguments: id });
  if (paths.length > 0) actions.push({ title: 'Review Session Changes', command: 'gateway.agent.reviewChanges', arguments: id });
  actions.push({ title: 'Open Transcript', command: 'gateway.agent.openTranscript', arguments: id });
  return { message, actions };
}
