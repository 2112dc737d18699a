// Response objects, output items and the event stream of POST /v1/responses.
import { hex, nowSec } from './ids';
import type { Plan } from './scripted-model';
import { splitArguments, splitDeltas } from './scripted-model';
import type { Frame } from './sse';
import type { Obj } from './validate-common';
import type { ApiErrorBody } from './types';

export interface ResponseMeta {
  id: string;
  createdAt: number;
  model: string;
  body: Obj;
  previousResponseId: string | null;
}

export type OutputItem = Record<string, unknown> & { id: string; type: string };

export function outputItems(plan: Plan): OutputItem[] {
  const items: OutputItem[] = [];
  if (plan.reasoning) items.push({ id: `rs_${hex()}`, type: 'reasoning', summary: [{ type: 'summary_text', text: plan.reasoning }] });
  for (const c of plan.customCalls) {
    items.push({ id: `ctc_${hex()}`, type: 'custom_tool_call', status: 'completed', call_id: c.callId, name: c.name, input: c.input });
  }
  if (plan.text || plan.calls.length === 0) {
    items.push({
      id: `msg_${hex()}`,
      type: 'message',
      status: plan.truncated || plan.finish === 'length' ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: plan.text, annotations: [], logprobs: [] }],
    });
  }
  for (const c of plan.calls) {
    items.push({ id: `fc_${hex()}`, type: 'function_call', status: 'completed', arguments: c.arguments, call_id: c.callId, name: c.name });
  }
  return items;
}

export function responsesUsage(plan: Plan): Record<string, unknown> {
  const u = plan.usage;
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    reasoning_tokens: u.reasoning,
    total_tokens: u.total,
  };
}

export type FinalStatus = 'completed' | 'incomplete';

export function finalStatus(plan: Plan): { status: FinalStatus; incomplete_details: { reason: string } | null } {
  if (plan.truncated || plan.finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (plan.finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

export function responseObject(meta: ResponseMeta, fields: Obj): Obj {
  const b = meta.body;
  const reasoning = b.reasoning && typeof b.reasoning === 'object' ? (b.reasoning as Obj) : {};
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status: 'in_progress',
    background: false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    max_tool_calls: null,
    model: meta.model,
    output: [],
    parallel_tool_calls: true,
    previous_response_id: meta.previousResponseId,
    reasoning: { effort: reasoning.effort ?? null, summary: null },
    service_tier: b.service_tier ?? 'default',
    store: b.store ?? true,
    temperature: b.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: b.tool_choice ?? 'auto',
    tools: b.tools ?? [],
    top_p: b.top_p ?? 1,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
    ...fields,
  };
}

export function finalResponse(meta: ResponseMeta, plan: Plan, output: OutputItem[]): Obj {
  return responseObject(meta, { ...finalStatus(plan), completed_at: nowSec(), output, usage: responsesUsage(plan) });
}

export class Sequencer {
  n = 0;
  frame(type: string, fields: Obj, extra: Partial<Frame> = {}): Frame {
    const seq = this.n++;
    return { event: type, data: JSON.stringify({ type, sequence_number: seq, ...fields }), seq, ...extra };
  }
}

export function errorFrames(seq: Sequencer, meta: ResponseMeta, error: ApiErrorBody): Frame[] {
  return [
    seq.frame('error', { error }),
    seq.frame(
      'response.failed',
      { response: responseObject(meta, { status: 'failed', error: { code: error.code, message: error.message } }) },
      { terminal: true },
    ),
  ];
}

export function* responseFrames(seq: Sequencer, meta: ResponseMeta, plan: Plan, output: OutputItem[]): Generator<Frame> {
  const initial = responseObject(meta, {});
  yield seq.frame('response.created', { response: initial });
  yield seq.frame('response.in_progress', { response: initial });
  for (const [output_index, item] of output.entries()) {
    const item_id = item.id;
    if (item.type === 'reasoning') {
      const part = { type: 'summary_text', text: plan.reasoning };
      yield seq.frame('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      yield seq.frame('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { ...part, text: '' } });
      for (const delta of splitDeltas(plan.reasoning, plan.chunkChars)) {
        yield seq.frame('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta }, { content: true });
      }
      yield seq.frame('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text: plan.reasoning });
      yield seq.frame('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part });
    } else if (item.type === 'message') {
      const part = { type: 'output_text', annotations: [], logprobs: [], text: plan.text };
      yield seq.frame('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      yield seq.frame('response.content_part.added', { item_id, output_index, content_index: 0, part: { ...part, text: '' } });
      for (const delta of splitDeltas(plan.text, plan.chunkChars)) {
        yield seq.frame('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] }, { content: true });
      }
      yield seq.frame('response.output_text.done', { item_id, output_index, content_index: 0, text: plan.text, logprobs: [] });
      yield seq.frame('response.content_part.done', { item_id, output_index, content_index: 0, part });
    } else if (item.type === 'custom_tool_call') {
      yield seq.frame('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
    } else {
      const args = item.arguments as string;
      yield seq.frame('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of splitArguments(args, plan.chunkChars)) {
        yield seq.frame('response.function_call_arguments.delta', { item_id, output_index, delta }, { content: true });
      }
      yield seq.frame('response.function_call_arguments.done', { item_id, output_index, arguments: args });
    }
    yield seq.frame('response.output_item.done', { output_index, item });
  }
  const final = finalResponse(meta, plan, output);
  yield seq.frame(final.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final }, { terminal: true });
}
