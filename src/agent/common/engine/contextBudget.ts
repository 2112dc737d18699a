/**
 * How big a session's requests are, how big they may be, and the deterministic
 * trim that makes a conversation fit. Pure functions over the items: no I/O.
 *
 * Tokens are estimated as the gateway's emulator and most tokenizers roughly
 * count English and code: a token per 4 characters of the text the model reads.
 */
import type { ResponseInputItem, ToolDefinition } from '../../../gateway/common';

/** Share of the context window a request may fill before the session compacts. */
export const COMPACT_AT_SHARE = 0.8;
/** Share of the window one tool output may take; a longer one is cut with a note. */
export const TOOL_OUTPUT_SHARE = 0.2;
/** Share of the threshold the most recent items kept verbatim after a compaction may take. */
export const RECENT_ITEMS_SHARE = 0.2;
/**
 * Room kept under the threshold for the summary request (the chain, the last answer, the
 * request for a summary): compacting early by this much keeps that request under the threshold too.
 */
export const SUMMARY_RESERVE_SHARE = 0.06;

export function tokensOfText(text: string): number {
  return Math.ceil(text.length / 4);
}

export function itemText(item: ResponseInputItem): string {
  if (item.type === 'function_call') return item.name + item.arguments;
  if (item.type === 'function_call_output') return item.output;
  return item.content;
}

export function tokensOfItems(items: readonly ResponseInputItem[]): number {
  let chars = 0;
  for (const item of items) chars += itemText(item).length;
  return Math.ceil(chars / 4);
}

/** What a request without previous_response_id costs besides its items: instructions and tool declarations. */
export function fixedTokens(instructions: string, tools: readonly ToolDefinition[]): number {
  return tokensOfText(instructions) + (tools.length > 0 ? tokensOfText(JSON.stringify(tools)) : 0);
}

/**
 * The most a request may carry: a share of the window, and never more than
 * `tpmSeconds` of the key's tokens per minute (so one request does not need the
 * whole minute's budget and stall the session behind the rate limit).
 */
export function requestThreshold(contextWindow: number, tokensPerMinute: number | undefined, tpmSeconds: number): number {
  const byWindow = Math.floor(contextWindow * COMPACT_AT_SHARE);
  if (tokensPerMinute === undefined || !(tokensPerMinute > 0)) return byWindow;
  return Math.max(1, Math.min(byWindow, Math.floor((tokensPerMinute * tpmSeconds) / 60)));
}

/**
 * Indexes where a conversation may be cut so both sides keep their call/output
 * pairs whole: every call before the cut has its output before it, and the cut
 * does not start on an output. Index `items.length` is always one.
 */
export function cutPoints(items: readonly ResponseInputItem[]): number[] {
  const open = new Set<string>();
  const points: number[] = [];
  for (const [index, item] of items.entries()) {
    if (open.size === 0 && item.type !== 'function_call_output') points.push(index);
    if (item.type === 'function_call') open.add(item.call_id);
    else if (item.type === 'function_call_output') open.delete(item.call_id);
  }
  if (open.size === 0) points.push(items.length);
  return points;
}

/** The start of the longest pair-safe tail of `items` within `budget` tokens (items.length when none fits). */
export function recentStart(items: readonly ResponseInputItem[], budget: number): number {
  let start = items.length;
  const points = cutPoints(items);
  for (let i = points.length - 1; i >= 0; i--) {
    if (tokensOfItems(items.slice(points[i])) > budget) break;
    start = points[i];
  }
  return start;
}

/** The one-line note that replaces a tool output a trim left out. */
export function omittedOutputNote(name: string, chars: number): string {
  return `[${name} output left out to fit the context window (${chars.toLocaleString('en-US')} characters); call it again if it is still needed.]`;
}

/**
 * The deterministic trim: the oldest tool outputs become one-line notes, then
 * (if that is not enough) the oldest whole steps are dropped, keeping the first
 * item (the task or the summary) — until the items fit `budget` tokens. Pairs
 * stay whole: an output is shortened, never removed without its call.
 */
export function trimToFit(items: readonly ResponseInputItem[], budget: number): ResponseInputItem[] {
  // Unchanged items stay the same objects: callers tell a trimmed item from a verbatim one by identity.
  const out = [...items];
  const names = new Map<string, string>();
  for (const item of out) if (item.type === 'function_call') names.set(item.call_id, item.name);
  let total = tokensOfItems(out);
  for (const [index, item] of out.entries()) {
    if (total <= budget) return out;
    if (item.type !== 'function_call_output') continue;
    const note = omittedOutputNote(names.get(item.call_id) ?? 'tool', item.output.length);
    if (note.length >= item.output.length) continue;
    total -= tokensOfText(item.output) - tokensOfText(note);
    out[index] = { ...item, output: note };
  }
  if (tokensOfItems(out) <= budget) return out;
  const keepFirst = out.length > 0 && out[0].type !== 'function_call' && out[0].type !== 'function_call_output' ? 1 : 0;
  const rest = out.slice(keepFirst);
  const head = out.slice(0, keepFirst);
  const points = cutPoints(rest);
  for (const point of points) {
    const candidate = [...head, ...rest.slice(point)];
    if (tokensOfItems(candidate) <= budget) return candidate;
  }
  return [...head, ...rest.slice(points.at(-1) ?? rest.length)];
}

/**
 * A tool output cut to `maxChars`, with a note telling the model how to get the rest. Cut after a whole line
 * when one ends in the second half: `continuation` (the tool's) then says how to call for the lines after it.
 */
export function boundedToolOutput(output: string, maxChars: number, continuation?: (linesShown: number) => string | undefined): string {
  if (output.length <= maxChars) return output;
  const lineEnd = output.lastIndexOf('\n', maxChars);
  const lines = lineEnd >= maxChars / 2 ? output.slice(0, lineEnd).split('\n').length : 0;
  const shown = lines > 0 ? output.slice(0, lineEnd) : output.slice(0, maxChars);
  const next = lines > 0 ? continuation?.(lines) : undefined;
  const rest = next
    ? `For the rest, ${next}.`
    : 'Get the rest in parts: read_file with startLine/endLine, a narrower search_text pattern or folder, or a command that prints less (head, tail, grep).';
  return (
    `${shown}\n[Output cut at ${shown.length.toLocaleString('en-US')} of ${output.length.toLocaleString('en-US')} characters` +
    `${lines > 0 ? `, after its line ${lines},` : ''} to fit the context window. ${rest}]`
  );
}

/** "23k" / "1.2k" / "800" */
export function shortTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  return tokens < 10_000 ? `${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k` : `${Math.round(tokens / 1000)}k`;
}
