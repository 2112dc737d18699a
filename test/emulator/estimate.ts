// Prompt-token estimate for rate-limit admission, computed before the body is validated (lenient on purpose).
import { contentText, promptText, type ConvItem } from './conversation';
import { estimateTokens } from './ids';
import { isObj, type Obj } from './validate-common';

function lenientItems(list: unknown): ConvItem[] {
  if (typeof list === 'string') return [{ kind: 'message', role: 'user', text: list }];
  if (!Array.isArray(list)) return [];
  const items: ConvItem[] = [];
  for (const m of list) {
    if (!isObj(m)) continue;
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    if (m.type === 'function_call') items.push({ kind: 'call', callId: '', name: str(m.name), arguments: str(m.arguments) });
    else if (m.type === 'function_call_output') items.push({ kind: 'output', callId: '', output: contentText(m.output) });
    else items.push({ kind: 'message', role: str(m.role), text: contentText(m.content) });
    if (Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) {
        const fn = isObj(c) && isObj(c.function) ? c.function : {};
        items.push({ kind: 'call', callId: '', name: str(fn.name), arguments: str(fn.arguments) });
      }
    }
  }
  return items;
}

/** Same counting as the usage the model reports: ceil(chars / 4) of the conversation text, at least 1. */
export function estimatePrompt(body: unknown, previous: ConvItem[] = []): number {
  if (!isObj(body)) return 1;
  const b: Obj = body;
  const items = [...previous, ...lenientItems(b.messages ?? b.input)];
  return estimateTokens(promptText(items, typeof b.instructions === 'string' ? b.instructions : undefined));
}
