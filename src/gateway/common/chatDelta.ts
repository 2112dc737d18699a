/**
 * The parts of a chat delta (or a whole message) as providers really send them:
 * `content` a string or an array of typed parts (Mistral's `thinking` parts,
 * `text`, `refusal`), `refusal` on its own, and reasoning under
 * `reasoning_content` (DeepSeek, Moonshot, vLLM), `reasoning` (Groq, OpenRouter,
 * some gpt-oss servers) or OpenRouter's `reasoning_details`. Anything else in a
 * delta is ignored, never fatal.
 */
import type { StreamEvent } from './types';

/** Appends `delta`'s answer text and reasoning to `out`: the content's parts in their order, then the reasoning fields. */
export function decodeDeltaContent(delta: Record<string, unknown>, out: StreamEvent[]): void {
  const content = delta.content;
  if (typeof content === 'string') {
    if (content.length > 0) pushMerged(out, 'text', content);
  } else if (Array.isArray(content)) {
    for (const part of content) contentPart(part, out);
  } else if (content !== null && typeof content === 'object') {
    contentPart(content, out);
  }
  if (typeof delta.refusal === 'string' && delta.refusal.length > 0) pushMerged(out, 'text', delta.refusal);
  const reasoning = reasoningOf(delta);
  if (reasoning !== '') pushMerged(out, 'reasoning', reasoning);
}

/**
 * The reasoning a delta carries. OpenRouter sends the same text twice (`reasoning` and
 * `reasoning_details`), so the details count only when no plain field has text.
 */
export function reasoningOf(delta: Record<string, unknown>): string {
  const plain = delta.reasoning_content ?? delta.reasoning;
  if (typeof plain === 'string' && plain.length > 0) return plain;
  const details = delta.reasoning_details;
  if (!Array.isArray(details)) return '';
  let text = '';
  for (const detail of details) text += reasoningDetailText(detail);
  return text;
}

/** `reasoning.text` and `reasoning.summary` details are readable; `reasoning.encrypted` is opaque and not shown. */
function reasoningDetailText(detail: unknown): string {
  if (detail === null || typeof detail !== 'object') return '';
  const { type, text, summary } = detail as Record<string, unknown>;
  if (type === 'reasoning.text' && typeof text === 'string') return text;
  if (type === 'reasoning.summary' && typeof summary === 'string') return summary;
  return '';
}

/** One typed part: text and refusals are the answer, thinking and reasoning parts are reasoning; other parts (images, references) are ignored. */
function contentPart(part: unknown, out: StreamEvent[]): void {
  if (typeof part === 'string') {
    if (part.length > 0) pushMerged(out, 'text', part);
    return;
  }
  if (part === null || typeof part !== 'object') return;
  const typed = part as Record<string, unknown>;
  switch (typed.type) {
    case 'text':
    case 'output_text':
      if (typeof typed.text === 'string' && typed.text.length > 0) pushMerged(out, 'text', typed.text);
      return;
    case 'refusal':
      if (typeof typed.refusal === 'string' && typed.refusal.length > 0) pushMerged(out, 'text', typed.refusal);
      return;
    case 'thinking':
    case 'reasoning':
    case 'reasoning_text': {
      const text = thinkingText(typed.thinking ?? typed.reasoning ?? typed.text);
      if (text !== '') pushMerged(out, 'reasoning', text);
      return;
    }
    default:
      return;
  }
}

/** A thinking part's text: a string, or (Mistral) an array of text parts. */
function thinkingText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  let text = '';
  for (const inner of value) {
    if (typeof inner === 'string') text += inner;
    else if (inner !== null && typeof inner === 'object' && typeof (inner as { text?: unknown }).text === 'string') text += (inner as { text: string }).text;
  }
  return text;
}

/**
 * Text (or reasoning) following the same kind in one network read becomes one
 * event: the consumer gets the same text no later, and renders it once.
 */
export function pushMerged(out: StreamEvent[], type: 'text' | 'reasoning', text: string): void {
  const last = out.length > 0 ? out[out.length - 1] : undefined;
  if (last !== undefined && (last.type === 'text' || last.type === 'reasoning') && last.type === type) last.text += text;
  else out.push({ type, text });
}
