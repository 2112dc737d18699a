/**
 * VS Code's language-model request messages as chat-completions messages.
 * Kept free of `vscode` so it can be tested, and because `instanceof` does not
 * work here: VS Code 1.104 hands providers `LanguageModelToolResultPart2`, a
 * class separate from `LanguageModelToolResultPart`, and system messages with a
 * role (3) its stable enum does not have. Parts are therefore told apart by shape.
 */
import type { ChatMessage, ChatToolCall } from '../../gateway/common';

/** What this module reads of `vscode.LanguageModelChatRequestMessage`. */
export interface RequestMessageLike {
  readonly role: number;
  readonly content: readonly unknown[];
}

/** Runtime values of `LanguageModelChatMessageRole`; System is only in the proposed API in 1.104. */
const ROLE_ASSISTANT = 2;
const ROLE_SYSTEM = 3;

/** Textual data parts up to this size are passed as text; larger ones get a placeholder. */
const MAX_DECODED_BYTES = 16_384;

type Part =
  { kind: 'text'; text: string } | { kind: 'toolCall'; call: ChatToolCall } | { kind: 'toolResult'; callId: string; content: string } | { kind: 'ignored' };

export function toChatMessages(messages: readonly RequestMessageLike[]): ChatMessage[] {
  return messages.flatMap(toChatMessagesOf);
}

/** One request message: its tool results first (they answer the previous assistant turn), then its text. */
function toChatMessagesOf(message: RequestMessageLike): ChatMessage[] {
  const parts = message.content.map(classify);
  const text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
  const toolCalls = parts.flatMap((part) => (part.kind === 'toolCall' ? [part.call] : []));
  const out: ChatMessage[] = parts.flatMap((part) =>
    part.kind === 'toolResult' ? [{ role: 'tool' as const, tool_call_id: part.callId, content: part.content }] : [],
  );
  if (message.role === ROLE_ASSISTANT) {
    if (text || toolCalls.length > 0) out.push({ role: 'assistant', content: text || null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
  } else if (text) {
    out.push({ role: message.role === ROLE_SYSTEM ? 'system' : 'user', content: text });
  }
  return out;
}

function classify(part: unknown): Part {
  if (!isObject(part)) return { kind: 'ignored' };
  if (typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part) {
    return { kind: 'toolCall', call: { id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } } };
  }
  if (typeof part.callId === 'string' && Array.isArray(part.content)) {
    return { kind: 'toolResult', callId: part.callId, content: part.content.map(pieceText).join('') };
  }
  if (typeof part.value === 'string') return { kind: 'text', text: part.value };
  if (isDataPart(part)) return { kind: 'text', text: dataText(part.mimeType, part.data) };
  return { kind: 'ignored' };
}

/** One piece of a tool result as text: never the JSON of a byte array (`{"0":200,…}`), which can run to megabytes. */
function pieceText(piece: unknown): string {
  if (!isObject(piece)) return typeof piece === 'string' ? piece : '';
  if (typeof piece.value === 'string') return piece.value;
  if (isDataPart(piece)) return dataText(piece.mimeType, piece.data);
  // A prompt-tsx part: its value is a tree of text elements, meaningful as JSON.
  if ('value' in piece) return JSON.stringify(piece.value) ?? '';
  return '[unsupported content omitted]';
}

/** Small textual data as text; anything else as a short note of what was left out. */
export function dataText(mimeType: string, data: ArrayBufferView): string {
  // Not a media type ("cache_control", "stateful_marker"): a hint for other providers, not content.
  if (!mimeType.includes('/')) return '';
  if (isTextual(mimeType) && data.byteLength <= MAX_DECODED_BYTES) return new TextDecoder().decode(data);
  return `[${mimeType}, ${data.byteLength} bytes omitted]`;
}

function isTextual(mimeType: string): boolean {
  const type = mimeType.toLowerCase().split(';')[0].trim();
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type === 'application/xml' || type.endsWith('+xml');
}

/** About four characters a token, over the text actually sent: VS Code uses this to budget prompts, not to bill. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += message.content?.length ?? 0;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
  }
  return Math.ceil(chars / 4);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isDataPart(value: Record<string, unknown>): value is { mimeType: string; data: ArrayBufferView } {
  return typeof value.mimeType === 'string' && ArrayBuffer.isView(value.data);
}
