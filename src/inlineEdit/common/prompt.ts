/**
 * Builds the chat-completions messages for "Edit Selection…": the model gets the
 * selection, a bounded excerpt of the code around it, and the user's instruction,
 * and is told to answer with the replacement code alone.
 */
import { codeFence } from '../../base/common';
import type { ChatMessage } from '../../gateway/common';

/** At most this many lines of context on each side of the selection. */
export const MAX_CONTEXT_LINES = 60;
/** At most this many characters of context on each side of the selection. */
export const MAX_CONTEXT_CHARS = 6000;

export interface InlineEditPromptInput {
  /** VS Code language id, e.g. `typescript`. */
  languageId: string;
  /** The file's name or workspace-relative path, as the model should see it. */
  fileName: string;
  instruction: string;
  /** The selected text, exactly as in the document. */
  selection: string;
  /** Text before the selection (bounded again here, so the whole prefix may be passed). */
  before: string;
  /** Text after the selection (bounded again here). */
  after: string;
}

export interface SurroundingContext {
  before: string;
  after: string;
}

const SYSTEM_PROMPT = [
  'You are a code editor inside VS Code. The user selected part of a file and says how to change it.',
  'Reply with ONLY the code that replaces the selection: no Markdown fences, no explanations, no notes before or after.',
  'Do not repeat the code before or after the selection; it stays in the file as it is.',
  "Keep the selection's indentation and the file's style (indent width, quotes, semicolons, naming, comments).",
  'If the instruction cannot be done, reply with the selection unchanged.',
].join(' ');

/** The code around a selection, cut at the line boundaries nearest the selection to at most {@link MAX_CONTEXT_LINES} lines and {@link MAX_CONTEXT_CHARS} characters a side. */
export function surroundingContext(fullText: string, selectionStartOffset: number, selectionEndOffset: number): SurroundingContext {
  const start = clamp(Math.min(selectionStartOffset, selectionEndOffset), 0, fullText.length);
  const end = clamp(Math.max(selectionStartOffset, selectionEndOffset), 0, fullText.length);
  return { before: tailLines(fullText.slice(0, start)), after: headLines(fullText.slice(end)) };
}

export function buildInlineEditMessages(input: InlineEditPromptInput): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: userContent(input) },
  ];
}

function userContent(input: InlineEditPromptInput): string {
  const language = input.languageId.trim();
  const before = tailLines(input.before);
  const after = headLines(input.after);
  const { selection } = input;
  const parts: string[] = [`File: ${input.fileName}\nLanguage: ${language || 'unknown'}`];

  if (before === '') parts.push('The selection starts at the beginning of the file.');
  else parts.push(`Code just before the selection:\n${codeFence(before, language)}`);

  if (selection === '') {
    parts.push('The selection is empty (a cursor position): reply with the code to insert there.');
  } else {
    parts.push(`The selection to rewrite (everything between the fences, nothing else):\n${codeFence(selection, language)}`);
  }

  if (after === '') parts.push('The selection runs to the end of the file.');
  else parts.push(`Code just after the selection:\n${codeFence(after, language)}`);

  const notes: string[] = [];
  if (before !== '' && !before.endsWith('\n')) notes.push('The selection starts in the middle of a line, right after the code before it.');
  if (after !== '' && !after.startsWith('\n') && !after.startsWith('\r\n') && selection !== '' && !selection.endsWith('\n')) {
    notes.push('The selection ends in the middle of a line; the code after it continues on the same line.');
  }
  if (notes.length > 0) parts.push(notes.join(' '));

  parts.push(`Instruction: ${input.instruction.trim()}`);
  parts.push('Reply with only the replacement code for the selection.');
  return parts.join('\n\n');
}

/** The last whole lines of `text` within the bounds; a single over-long line is cut to its last characters. */
export function tailLines(text: string, maxLines = MAX_CONTEXT_LINES, maxChars = MAX_CONTEXT_CHARS): string {
  if (text === '' || maxLines <= 0 || maxChars <= 0) return '';
  let start = text.length;
  let lines = 0;
  // Search for the newline that ends the line before the current one; a trailing newline ends the last line.
  let searchFrom = text.endsWith('\n') ? text.length - 2 : text.length - 1;
  while (lines < maxLines) {
    const newline = searchFrom < 0 ? -1 : text.lastIndexOf('\n', searchFrom);
    const lineStart = newline + 1;
    if (text.length - lineStart > maxChars) break;
    start = lineStart;
    lines++;
    if (newline < 0) break;
    searchFrom = newline - 1;
  }
  if (start === text.length) return text.slice(text.length - maxChars);
  return text.slice(start);
}

/** The first whole lines of `text` within the bounds; a single over-long line is cut to its first characters. */
export function headLines(text: string, maxLines = MAX_CONTEXT_LINES, maxChars = MAX_CONTEXT_CHARS): string {
  if (text === '' || maxLines <= 0 || maxChars <= 0) return '';
  let end = 0;
  let lines = 0;
  while (end < text.length && lines < maxLines) {
    const newline = text.indexOf('\n', end);
    const lineEnd = newline < 0 ? text.length : newline + 1;
    if (lineEnd > maxChars) break;
    end = lineEnd;
    lines++;
  }
  if (end === 0) return text.slice(0, maxChars);
  return text.slice(0, end);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Number.isFinite(value) ? Math.trunc(value) : min));
}
