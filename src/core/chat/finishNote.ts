/**
 * What to tell the user after an answer that did not end on its own. The text
 * already shown reads as a whole answer; without a note nobody can tell that
 * the model was stopped (by the length limit, the content filter, or anything
 * else the gateway reports).
 */

/** Finish reasons of an answer that ended normally (tool calls end a turn, not the answer). */
const COMPLETE = new Set(['stop', 'tool_calls']);

/** A markdown note to append after the answer, or undefined when it is complete. */
export function incompleteAnswerNote(finishReason: string): string | undefined {
  if (COMPLETE.has(finishReason)) return undefined;
  if (finishReason === 'length') return '\n\n_The answer was cut at the maximum length (`gateway.maxTokens`)._';
  if (finishReason === 'content_filter') return "\n\n_The Gateway's content filter stopped this answer, so it is incomplete._";
  return `\n\n_The answer stopped early (finish reason \`${finishReason.replace(/[`\n]/g, '')}\`), so it may be incomplete._`;
}
