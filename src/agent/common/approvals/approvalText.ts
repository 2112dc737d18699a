/**
 * What the user is told about an approval while it waits and once it has ended:
 * the one line every place that shows a waiting session uses (the chat's progress,
 * the palette's progress notification, the status bar), the line the chat adds
 * under an answered approval, and what a button of an ended approval says.
 */
import type { ApprovalRequest } from '../../../sessionModel/common';
import type { AnsweredApproval } from './pendingApprovals';
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

/** What Approve / Deny on an approval that no longer waits says: what happened to it, so the click is not a mystery. */
export function staleAnswerMessage(ended: AnsweredApproval | undefined): string {
  if (!ended) return 'That approval is no longer waiting (already answered, or the session stopped).';
  const what = `"${unlinked(visibleText(ended.request.summary))}"`;
  if (ended.outcome === 'approved') return `You already approved ${what}; this button no longer does anything.`;
  if (ended.outcome === 'denied') return `You already denied ${what}; this button no longer does anything.`;
  return `${what} was never answered: the session stopped, so it did not run. Continue the session to let the agent ask again.`;
}
