/**
 * Which turns of the Chat view's history go into the chat model's prompt. Agent
 * turns live in their own session, and turns answered locally (an /explain with
 * nothing to explain) never reached the model: leaving out only their answers
 * would leave their prompts as unanswered user messages. Kept free of `vscode`
 * so it can be tested.
 */
import type { ConversationTurn } from './prompt';
import { withoutNotes } from './notes';

/** A history turn reduced to what the choice needs (see context.ts for the mapping from VS Code's turns). */
export type HistoryEntry =
  | { kind: 'request'; participant: string; command?: string; text: string }
  | { kind: 'response'; participant: string; command?: string; metadata?: unknown; text: string };

/** The participant's own turns, without agent turns and turns answered without a request. */
export function conversationTurns(history: readonly HistoryEntry[], participant: string): ConversationTurn[] {
  const own = history.filter((entry) => entry.participant === participant);
  const turns: ConversationTurn[] = [];
  own.forEach((entry, index) => {
    if (entry.kind === 'response') {
      // The notes an answer showed (outputs the model sent unasked) are the user's, not the model's.
      const notes = (entry.metadata as { notes?: unknown } | undefined)?.notes;
      if (!isOutsideConversation(entry)) turns.push({ role: 'assistant', text: withoutNotes(entry.text, notes) });
      return;
    }
    // A follow-up without /agent still went to the session when its answer says so.
    const answer = own[index + 1];
    if (entry.command === 'agent' || (answer?.kind === 'response' && isOutsideConversation(answer))) return;
    turns.push({ role: 'user', text: entry.command ? `/${entry.command} ${entry.text}` : entry.text });
  });
  return turns;
}

/**
 * agentTurn.ts marks its results with `command: 'agent'` and, once a session exists, its
 * `sessionId`; the participant marks an answer given without a request `unsent`, and a question
 * that failed `retry` (its answer is the failure and its fix, not the model's).
 */
function isOutsideConversation(entry: Extract<HistoryEntry, { kind: 'response' }>): boolean {
  if (entry.command === 'agent') return true;
  const metadata = entry.metadata as { command?: unknown; sessionId?: unknown; unsent?: unknown; retry?: unknown } | undefined;
  return metadata?.sessionId !== undefined || metadata?.command === 'agent' || metadata?.unsent === true || metadata?.retry !== undefined;
}
