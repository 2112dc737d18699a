/**
 * What to tell the user after an answer that did not end on its own. The text
 * already shown reads as a whole answer; without a note nobody can tell that
 * the model was stopped (by the length limit, the content filter, or anything
 * else the gateway reports). @gateway appends it to the answer; Edit Selection
 * shows it on the diff and in a warning.
 */

/** Finish reasons of an answer that ended normally (tool calls end a turn, not the answer). */
const COMPLETE = new Set(['stop', 'tool_calls']);

/** Longest finish reason named to the user: the gateway's words are not trusted to be short. */
const MAX_REASON_SHOWN = 40;

/**
 * Why an answer that ended with `finishReason` is incomplete, as plain text that
 * follows "incomplete: " (no markdown, no `$(icon)`); undefined when it is complete.
 */
export function incompleteReason(finishReason: string): string | undefined {
  if (COMPLETE.has(finishReason)) return undefined;
  if (finishReason === 'length') return 'it hit the token limit ("gateway.maxTokens")';
  if (finishReason === 'content_filter') return "the Gateway's content filter stopped it";
  const named = finishReason.replace(/[^\w.-]/g, '').slice(0, MAX_REASON_SHOWN) || 'unknown';
  return `it stopped early (finish reason "${named}")`;
}

/** A markdown note to append after a chat answer, or undefined when it is complete. */
export function incompleteAnswerNote(finishReason: string): string | undefined {
  const reason = incompleteReason(finishReason);
  return reason === undefined ? undefined : `\n\n_The answer is incomplete: ${reason}._`;
}
