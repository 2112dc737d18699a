/** Translation between the client's params/results and the wire's JSON. */
import * as z from 'zod/mini';
import { decodeDeltaContent } from './chatDelta';
import { generatedCallId } from './chatToolCalls';
import { ProtocolError } from './errors';
import type { ChatParams, CompletionResult, FinishReason, RespondParams, StreamEvent, ToolCall, ToolChoice, ToolDefinition } from './types';
import { normaliseUsage } from './usageCounts';

export function chatBody(params: ChatParams, stream: boolean): Record<string, unknown> {
  return dropUndefined({
    model: params.model,
    messages: params.messages,
    temperature: params.temperature,
    top_p: params.topP,
    max_tokens: params.maxTokens,
    reasoning_effort: params.reasoningEffort,
    service_tier: params.serviceTier,
    tools: params.tools?.map(chatTool),
    tool_choice: chatToolChoice(params.toolChoice),
    stream,
    stream_options: stream ? { include_usage: true } : undefined,
  });
}

export function respondBody(params: RespondParams, stream: boolean): Record<string, unknown> {
  return dropUndefined({
    model: params.model,
    input: params.input,
    instructions: params.instructions,
    tools: params.tools?.map(responsesTool),
    tool_choice: responsesToolChoice(params.toolChoice),
    previous_response_id: params.previousResponseId,
    reasoning: params.reasoningEffort ? { effort: params.reasoningEffort } : undefined,
    service_tier: params.serviceTier,
    max_output_tokens: params.maxOutputTokens,
    temperature: params.temperature,
    top_p: params.topP,
    stream,
  });
}

/** About four characters a token: enough to pace against a tokens-per-minute limit. */
export function estimateTokens(body: Record<string, unknown>): number {
  const promptChars = JSON.stringify(body.messages ?? body.input ?? '').length + String(body.instructions ?? '').length;
  return Math.ceil(promptChars / 4);
}

function chatTool(tool: ToolDefinition) {
  return { type: 'function', function: dropUndefined({ name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict }) };
}

function responsesTool(tool: ToolDefinition) {
  return dropUndefined({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters ?? { type: 'object', properties: {} },
    strict: tool.strict ?? false,
  });
}

function chatToolChoice(choice: ToolChoice | undefined) {
  return typeof choice === 'object' ? { type: 'function', function: { name: choice.name } } : choice;
}

function responsesToolChoice(choice: ToolChoice | undefined) {
  return typeof choice === 'object' ? { type: 'function', name: choice.name } : choice;
}

function dropUndefined<T extends Record<string, unknown>>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

const chatCompletionSchema = z.looseObject({
  id: z.string(),
  model: z.optional(z.string()),
  choices: z
    .array(
      z.looseObject({
        // Content and reasoning in any of the shapes chatDelta.ts reads (a string or typed parts…); a call's id may be missing.
        message: z.looseObject({
          tool_calls: z.nullish(z.array(z.looseObject({ id: z.nullish(z.string()), function: z.looseObject({ name: z.string(), arguments: z.string() }) }))),
        }),
        finish_reason: z.nullish(z.string()),
      }),
    )
    .check(z.minLength(1)),
  usage: z.optional(z.unknown()),
});

export function resultFromChatCompletion(body: unknown): CompletionResult {
  const parsed = chatCompletionSchema.safeParse(body);
  if (!parsed.success) throw new ProtocolError('The Gateway answered with a chat completion the client cannot read. Try again.');
  const completion = parsed.data;
  const choice = completion.choices[0];
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call, n) => ({
    callId: call.id || generatedCallId(n),
    name: call.function.name,
    arguments: call.function.arguments,
  }));
  const parts: StreamEvent[] = [];
  decodeDeltaContent(choice.message, parts);
  return {
    id: completion.id,
    model: completion.model ?? '',
    text: joinText(parts, 'text'),
    reasoning: joinText(parts, 'reasoning'),
    toolCalls,
    finishReason: choice.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: normaliseUsage(completion.usage),
  };
}

function joinText(events: StreamEvent[], type: 'text' | 'reasoning'): string {
  let text = '';
  for (const event of events) if (event.type === type) text += event.text;
  return text;
}

const responseSchema = z.looseObject({
  id: z.string(),
  model: z.optional(z.string()),
  status: z.optional(z.string()),
  output: z.array(z.looseObject({ type: z.string() })),
  incomplete_details: z.nullish(z.looseObject({ reason: z.nullish(z.string()) })),
  usage: z.optional(z.unknown()),
});

export function resultFromResponse(body: unknown): CompletionResult {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) throw new ProtocolError('The Gateway answered with a response object the client cannot read. Try again.');
  const response = parsed.data;
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  for (const item of response.output as Record<string, unknown>[]) {
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content as Record<string, unknown>[]) if (part.type === 'output_text' && typeof part.text === 'string') text += part.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ callId: String(item.call_id ?? item.id ?? ''), name: String(item.name ?? ''), arguments: String(item.arguments ?? '') });
    } else if (item.type === 'reasoning' && Array.isArray(item.summary)) {
      for (const part of item.summary as Record<string, unknown>[]) if (typeof part.text === 'string') reasoning += part.text;
    }
  }
  const finishReason = responsesFinishReason(response.status === 'incomplete', response.incomplete_details, toolCalls.length > 0);
  return { id: response.id, model: response.model ?? '', text, reasoning, toolCalls, finishReason, usage: normaliseUsage(response.usage) };
}

/**
 * A responses answer's end as a chat completions finish reason, so every caller
 * reads one vocabulary: `max_output_tokens` is `length`, another incomplete
 * reason is kept as the gateway named it (`content_filter`…), and a complete
 * answer is `tool_calls` when it called tools, else `stop`.
 */
export function responsesFinishReason(incomplete: boolean, incompleteDetails: unknown, calledTools: boolean): FinishReason {
  if (!incomplete) return calledTools ? 'tool_calls' : 'stop';
  const reason = (incompleteDetails as { reason?: unknown } | null | undefined)?.reason;
  if (reason === 'max_output_tokens') return 'length';
  return typeof reason === 'string' ? reason : 'incomplete';
}
