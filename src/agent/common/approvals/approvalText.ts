/**
 * What the user is told about an approval while it waits and once it has ended:
 * the one line every place that shows a waiting session uses (the chat's progress,
 * the palette's progress notification, the status bar), the line the chat adds
 * under an answered approval, and what a button of an ended approval says.
 */
import type { ApprovalRequest } from '../../../sessionModel/common';
import type { AnsweredApproval } from './pendingApprovals';
import type { AgentSessionState } from '../../../sessionModel/common';
import { inlineCode } from './commandDisplay';
import { visibleText } from '../../../base/common';

/** The longest command or summary the one waiting line shows; the approval itself shows all of it. */
export const WAITING_LINE_CHARS = 120;

/** "waiting for your approval: curl -s https://…" (the command, else the summary, shortened to one line). */
export function waitingLine(request: Pick<ApprovalRequest, 'summary' | 'command'>): string {
  const what = visibleText((request.command?.line ?? request.summary).replace(/\s*[\r\n]+\s*/g, ' ⏎ '));
  const shown = what.length > WAITING_LINE_CHARS ? `${what.slice(0, WAITING_LINE_CHARS - 1)}…` : what;
  return `waiting for your approval: ${shown}`;
}

/**
 * Text a notification shows as it is: VS Code turns `[label](command:…)` in a
 * notification's message into a link, so a model's command could otherwise show
 * a fake "Approve" link. A word joiner (invisible) between `]` and `(` breaks it.
 */
export function unlinked(text: string): string {
  return text.replace(/\](?=\()/g, ']\u2060');
}

/** The line the chat adds under an approval once it has ended; its buttons stay as rendered. */
export function endedMarkdown({ request, outcome }: AnsweredApproval): string {
  const verdict = outcome === 'approved' ? '✓ **Approved:**' : outcome === 'denied' ? '✗ **Denied:**' : '■ **Not answered** (the session stopped):';
  return `${verdict} ${inlineCode(request.command?.line ?? request.summary)}`;
}

/** How the tool output of a call the user denied begins (the engine writes it; a stale button reads it back from the saved session). */
export const USER_DENIED_OUTPUT = 'The user denied this';

/**
 * How an approval ended, read from its saved session when this window no longer remembers it (it was reloaded
 * since): its call still pending (never answered), its output a denial, or any other output (it was approved and
 * ran); undefined when the session does not know the call.
 */
export function savedAnswerOf(state: Pick<AgentSessionState, 'pendingCalls' | 'transcript'>, callId: string): 'approved' | 'denied' | 'stopped' | undefined {
  if (state.pendingCalls.some((call) => call.callId === callId)) return 'stopped';
  for (const item of state.transcript) {
    if (item.type === 'function_call_output' && item.call_id === callId) return item.output.startsWith(USER_DENIED_OUTPUT) ? 'denied' : 'approved';
  }
  return undefined;
}

/** What a stale Approve / Deny says when only the saved session knows how its approval ended (see savedAnswerOf). */
export function savedAnswerMessage(outcome: 'approved' | 'denied' | 'stopped' | undefined): string {
  if (outcome === 'approved') return 'That approval was already approved and the call ran; this button no longer does anything.';
  if (outcome === 'denied') return 'That approval was already denied; this button no longer does anything.';
  if (outcome === 'stopped')
    return 'That approval was never answered: its session paused, so the call did not run. Continue the session to let the agent ask again.';
  return staleAnswerMessage(undefined);
}

/** What Approve / Deny on an approval that no longer waits says: what happened to it, so the click is not a mystery. */
export function staleAnswerMessage(ended: AnsweredApproval | undefined): string {
  if (!ended) return 'That approval is no longer waiting (already answered, or the session stopped).';
  const what = `"${unlinked(visibleText(ended.request.summary))}"`;
  if (ended.outcome === 'approved') return `You already approved ${what}; this button no longer does anything.`;
  if (ended.outcome === 'denied') return `You already denied ${what}; this button no longer does anything.`;
  return `${what} was never answered: the session stopped, so it did not run. Continue the session to let the agent ask again.`;
}
