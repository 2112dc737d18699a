// A normalized view of a conversation, shared by both endpoints.
export type ConvItem =
  | { kind: 'message'; role: string; text: string }
  | { kind: 'call'; callId: string; name: string; arguments: string }
  | { kind: 'output'; callId: string; output: string };

export interface ToolDecl {
  name: string;
  parameters?: unknown;
}

export type ToolChoice = { mode: 'auto' } | { mode: 'none' } | { mode: 'required' } | { mode: 'named'; name: string };

/** Text of the last user message, or of the last tool result when the conversation ends with tool results. */
export function lastInputText(items: ConvItem[]): string {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'output') return item.output;
    if (item.kind === 'message' && item.role === 'user') return item.text;
  }
  return '';
}

/** All the text a prompt is made of, for token estimates. */
export function promptText(items: ConvItem[], instructions?: string): string {
  let text = instructions ?? '';
  for (const item of items) {
    if (item.kind === 'message') text += item.text;
    else if (item.kind === 'call') text += item.name + item.arguments;
    else text += item.output;
  }
  return text;
}

/** Concatenated text of a content value: a string, or an array of parts with `text`. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
}
