/**
 * The input of a host tool (another extension's, an MCP server's) as the user
 * is asked about it. Such a tool may do anything with its input, and the model
 * writes that input: whatever decides what the tool does must be seen before
 * it runs. A one-line summary cannot hold a long input, so it shows the start
 * and the end, says how long the input is and that it is cut, and the whole
 * input is one action away (`full`). Runs of blank characters are collapsed and
 * counted, so padding cannot push `; curl … | sh` out of view, and invisible or
 * reordering characters are spelled out (see commandDisplay.ts).
 */
import { visibleText } from '../../base/common';

/** Characters of the input a summary shows: enough for a typical call, short enough for a notification. */
export const INPUT_SUMMARY_CHARS = 300;

export interface ToolInputDisplay {
  /** One line: the whole input when it fits, else its start, " … ", its end and a note that it is cut. */
  summary: string;
  /** The whole input, pretty-printed when it is JSON, nothing collapsed, invisible characters spelled out. */
  full: string;
  /** Characters of the input as the model sent it (compact JSON). */
  chars: number;
  /** Whether the summary shows every part of it (blank runs counted, not shown, still count as shown). */
  complete: boolean;
}

/** A run this long, or any run with a line break, is shown as its count; shorter runs of spaces as one space. */
const COUNTED_RUN = 8;

/** The input (the arguments object or its JSON text, as the model sent them) for an approval. */
export function describeToolInput(rawArgs: unknown, maxChars = INPUT_SUMMARY_CHARS): ToolInputDisplay {
  const text = typeof rawArgs === 'string' ? rawArgs : (JSON.stringify(rawArgs) ?? '');
  const parsed = parseJson(text);
  const compact = parsed.ok ? JSON.stringify(parsed.value) : text;
  const shown = visibleText(parsed.ok ? JSON.stringify(collapseBlanks(parsed.value)) : collapseRuns(text));
  const full = visibleText(parsed.ok ? JSON.stringify(parsed.value, null, 2) : text);
  const chars = compact.length;
  if (shown.length <= maxChars) return { summary: shown, full, chars, complete: true };
  const headChars = Math.floor(maxChars * 0.6);
  const tailChars = maxChars - headChars;
  const head = shown.slice(0, codePointBoundary(shown, headChars));
  const tail = shown.slice(codePointBoundary(shown, shown.length - tailChars));
  const cut = shown.length - head.length - tail.length;
  const summary = `${head} … ${tail}  (${chars.toLocaleString('en-US')} characters, ${cut.toLocaleString('en-US')} of them cut here: Show Full Input shows all)`;
  return { summary, full, chars, complete: false };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: text.trim() === '' ? {} : (JSON.parse(text) as unknown) };
  } catch {
    return { ok: false };
  }
}

/** The value with every key and string's blank runs collapsed (JSON escapes would show a newline as two characters, a run of them as many). */
function collapseBlanks(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return collapseRuns(value);
  // A hostile depth is left as JSON.stringify writes it: only the summary's look depends on this.
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => collapseBlanks(item, depth + 1));
  const collapsed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(collapsed, collapseRuns(key), { value: collapseBlanks(item, depth + 1), enumerable: true, configurable: true, writable: true });
  }
  return collapsed;
}

/** Runs of two or more blank characters (any Unicode space, line breaks included) as one space, or as their count when long or multi-line. */
function collapseRuns(text: string): string {
  return text.replace(/\s{2,}/gu, (run) => (run.length < COUNTED_RUN && !/[\n\r\u2028\u2029\u0085]/u.test(run) ? ' ' : ` ⟨${run.length} blank characters⟩ `));
}

/** `index`, moved back off the second half of a surrogate pair so a cut never splits a character. */
function codePointBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return index > 0 && code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}
