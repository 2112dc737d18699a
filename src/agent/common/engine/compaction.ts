/**
 * What a compaction sends and builds: the request for a structured summary,
 * and the opening of the new chain that replaces the conversation. The full
 * transcript is kept on disk; only the chain the gateway bills is replaced.
 */
import type { ResponseInputItem } from '../../../gateway/common';
import { shortTokens } from './contextBudget';
import type { AgentSessionState } from '../../../sessionModel/common';

/** Characters of the summary kept: a model that rambles must not refill the window. */
export const MAX_SUMMARY_CHARS = 24_000;
/** Characters of the task quoted in the opening (the summary has the rest). */
const MAX_TASK_CHARS = 6_000;
/** Output tokens the summary request may use. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 2_048;

export const SUMMARY_REQUEST = [
  'Context compaction: this conversation is about to be replaced by your summary, so write the summary the work will continue from.',
  'Do not call tools. Use exactly these headings, be specific (paths, names, exact errors) and brief:',
  "## Task (the user's request in their own words, and any later instructions)",
  '## Decisions (what was decided and why)',
  '## Files read (path: what matters in it)',
  '## Files changed (path: what changed and why)',
  '## Commands (command: result)',
  '## Remaining (what is left to do, next step first)',
].join('\n');

/** The request for the summary, as the last item of a continuation of the chain. */
export function summaryRequestItem(): ResponseInputItem {
  return { role: 'user', content: SUMMARY_REQUEST };
}

/**
 * The items a summary request continues the chain with: the unsent items, with
 * tool outputs shortened to a note (each call needs its output, but the outputs
 * stay verbatim in the new chain's recent items), then the request itself.
 */
export function summaryInput(unsent: readonly ResponseInputItem[]): ResponseInputItem[] {
  const shortened = unsent.map((item) => (item.type === 'function_call_output' ? { ...item, output: '[Output kept for after the compaction.]' } : item));
  return [...shortened, summaryRequestItem()];
}

/** The current chain's input: the compacted opening (or trimmed conversation), then the transcript since. */
export function chainItems(state: AgentSessionState): ResponseInputItem[] {
  return [...(state.chainBase ?? []), ...state.transcript.slice(state.chainFrom ?? 0)];
}

/** The first user message of the transcript: the task in the user's words. */
export function taskText(state: AgentSessionState): string {
  const first = state.transcript.find((item) => item.type !== 'function_call' && item.type !== 'function_call_output' && item.role === 'user');
  const text = first && first.type !== 'function_call' && first.type !== 'function_call_output' ? first.content : state.title;
  return text.length > MAX_TASK_CHARS ? `${text.slice(0, MAX_TASK_CHARS)} …` : text;
}

/** The new chain's first item: the task, the summary, and the files changed so far. */
export function compactedOpening(state: AgentSessionState, summary: string): ResponseInputItem {
  const bounded = summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS)} …` : summary;
  const files = state.originals.map((original) => original.path);
  return {
    role: 'user',
    content: [
      '[This session was compacted to fit the context window; the editor keeps the full transcript. Continue the task from here.]',
      '',
      "Task, in the user's words:",
      taskText(state),
      '',
      'Summary of the work so far:',
      bounded.trim() || '(no summary)',
      '',
      `Files changed so far: ${files.length > 0 ? files.join(', ') : 'none'}`,
      'The most recent steps follow verbatim.',
    ].join('\n'),
  };
}

/** "Compacted: 61,200 → 7,900 tokens" */
export function compactionNotice(before: number, after: number): string {
  return `Compacted: ${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} tokens`;
}

/** "context 23k / 32k": what the gateway holds for the session's chain against the model's window; undefined before the first request. */
export function contextUsage(state: AgentSessionState): string | undefined {
  const used = state.contextTokens ?? state.compactions?.at(-1)?.after;
  if (used === undefined || state.contextWindow === undefined) return undefined;
  return `context ${shortTokens(used)} / ${shortTokens(state.contextWindow)}`;
}

/** The last compaction's notice, for the views. */
export function lastCompactionNotice(state: AgentSessionState): string | undefined {
  const last = state.compactions?.at(-1);
  return last ? compactionNotice(last.before, last.after) : undefined;
}
