// Provider dialects of /v1/chat/completions: a model switched to one streams as that provider does.
// The shapes follow recordings other projects publish of DeepSeek's and Mistral's streams.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Plan } from './scripted-model';
import { splitDeltas } from './scripted-model';
import type { Frame } from './sse';
import { badValue } from './errors';
import type { Dialect } from './types';
import type { Obj } from './validate-common';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alnum = (n: number): string => [...randomBytes(n)].map((b) => ALNUM[b % ALNUM.length]).join('');

/** A tool call id as the dialect's provider makes them: Mistral's are 9 letters and digits. */
export function dialectCallId(dialect: Dialect): string {
  return dialect === 'mistral' ? alnum(9) : `call_00_${alnum(24)}`;
}

/** A completion id: DeepSeek's are UUIDs, Mistral's 32 hex digits. */
export const dialectCompletionId = (dialect: Dialect): string => (dialect === 'mistral' ? randomBytes(16).toString('hex') : randomUUID());

/** DeepSeek answers 400 when an input message carries `reasoning_content` (its own earlier reasoning sent back). */
export function checkDialectInput(dialect: Dialect, body: Obj): void {
  if (dialect !== 'deepseek' || !Array.isArray(body.messages)) return;
  body.messages.forEach((message: unknown, i) => {
    if (message && typeof message === 'object' && 'reasoning_content' in message) {
      throw badValue(`messages[${i}].reasoning_content`, `Invalid 'messages[${i}]': reasoning_content must not be sent back in the input messages.`);
    }
  });
}

function dialectUsage(dialect: Dialect, plan: Plan): Obj {
  const u = plan.usage;
  const base = { prompt_tokens: u.input, total_tokens: u.total, completion_tokens: u.output };
  if (dialect === 'mistral') return base;
  return {
    ...base,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning },
    prompt_cache_hit_tokens: 0,
    prompt_cache_miss_tokens: u.input,
  };
}

const thinkingPart = (text: string): Obj => ({ type: 'thinking', thinking: [{ type: 'text', text }] });

/** The non-stream answer in the dialect. */
export function dialectCompletion(dialect: Dialect, plan: Plan, head: { id: string; created: number; model: string }): Obj {
  const message: Obj = { role: 'assistant', content: plan.text || (plan.calls.length > 0 ? null : '') };
  if (dialect === 'deepseek') message.reasoning_content = plan.reasoning || null;
  else if (plan.reasoning) message.content = [thinkingPart(plan.reasoning), { type: 'text', text: plan.text }];
  if (plan.calls.length > 0) {
    message.tool_calls = plan.calls.map((c, index) => ({ index, id: c.callId, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: plan.finish }], usage: dialectUsage(dialect, plan) };
}

export function* dialectFrames(dialect: Dialect, plan: Plan, head: { id: string; created: number; model: string }): Generator<Frame> {
  const extra = dialect === 'deepseek' ? { system_fingerprint: 'fp_emulator' } : {};
  const chunk = (delta: Obj, finish: string | null = null, usage?: Obj): string =>
    JSON.stringify({
      ...head,
      object: 'chat.completion.chunk',
      ...extra,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    });
  yield* dialect === 'deepseek' ? deepSeekDeltas(plan, chunk) : mistralDeltas(plan, chunk);
  const usage = dialectUsage(dialect, plan);
  if (dialect === 'mistral' && plan.calls.length > 0) {
    // Mistral sends each call whole in one chunk; the last one carries the finish reason and the usage.
    for (const [i, call] of plan.calls.entries()) {
      const last = i === plan.calls.length - 1;
      const delta = { content: null, tool_calls: [{ id: call.callId, function: { name: call.name, arguments: call.arguments } }] };
      yield { data: last ? chunk(delta, plan.finish, usage) : chunk(delta), content: true, terminal: last };
    }
  } else {
    for (const [index, call] of plan.calls.entries()) {
      const delta = { tool_calls: [{ index, id: call.callId, type: 'function', function: { name: call.name, arguments: call.arguments } }] };
      yield { data: chunk(delta), content: true };
    }
    const last = dialect === 'deepseek' ? { content: '', reasoning_content: null } : { content: '' };
    yield { data: chunk(last, plan.finish, usage), terminal: true };
  }
  // Mistral's stream ends right after its [DONE] line, without the blank line that closes an event.
  yield { data: '[DONE]', terminal: true, unterminated: dialect === 'mistral' };
}

type ChunkOf = (delta: Obj) => string;

function* deepSeekDeltas(plan: Plan, chunk: ChunkOf): Generator<Frame> {
  yield { data: chunk(plan.reasoning ? { role: 'assistant', content: null, reasoning_content: '' } : { role: 'assistant', content: '' }) };
  for (const piece of splitDeltas(plan.reasoning, plan.chunkChars)) yield { data: chunk({ content: null, reasoning_content: piece }), content: true };
  for (const piece of splitDeltas(plan.text, plan.chunkChars)) yield { data: chunk({ content: piece, reasoning_content: null }), content: true };
}

function* mistralDeltas(plan: Plan, chunk: ChunkOf): Generator<Frame> {
  const thinking = splitDeltas(plan.reasoning, plan.chunkChars);
  // The first chunk names the role, with the first thinking piece when there is one.
  yield { data: chunk({ role: 'assistant', content: thinking.length > 0 ? [thinkingPart(thinking[0])] : '' }), content: thinking.length > 0 };
  for (const piece of thinking.slice(1)) yield { data: chunk({ content: [thinkingPart(piece)] }), content: true };
  for (const piece of splitDeltas(plan.text, plan.chunkChars)) yield { data: chunk({ content: [{ type: 'text', text: piece }] }), content: true };
}
