/**
 * Streams an answer from a model on whichever endpoint serves it. Chat models
 * answer on chat completions; a code-oriented model may be served only on
 * responses. The model list does not say which, so the first
 * `model_not_found` from chat completions tries responses once, and the
 * answer is remembered for the rest of the session.
 */
import {
  ModelNotFoundError,
  type CallOptions,
  type ChatMessage,
  type ChatParams,
  type GatewayClient,
  type ResponseInputItem,
  type StreamEvent,
} from '../../gateway/common';

export type Endpoint = 'chat' | 'responses';

export class ModelEndpoints {
  private readonly known = new Map<string, Endpoint>();

  constructor(private readonly client: GatewayClient) {}

  endpointOf(model: string): Endpoint {
    return this.known.get(model) ?? 'chat';
  }

  async *stream(params: ChatParams, call: CallOptions): AsyncGenerator<StreamEvent, void, undefined> {
    if (this.endpointOf(params.model) === 'responses') {
      yield* this.client.respondStream(toRespondParams(params), call);
      return;
    }
    let started = false;
    try {
      for await (const event of this.client.chatStream(params, call)) {
        started = true;
        yield event;
      }
      this.known.set(params.model, 'chat');
    } catch (error) {
      if (started || !(error instanceof ModelNotFoundError)) throw error;
      const fallback = this.client.respondStream(toRespondParams(params), call);
      try {
        let first = true;
        for await (const event of fallback) {
          if (first) this.known.set(params.model, 'responses');
          first = false;
          yield event;
        }
      } catch (fallbackError) {
        // Not served on either endpoint: the chat error says it best.
        throw fallbackError instanceof ModelNotFoundError ? error : fallbackError;
      }
    }
  }
}

/** Chat messages as responses input: system text becomes `instructions`, tool turns become call items. */
export function toRespondParams(params: ChatParams) {
  const instructions = params.messages
    .filter((m): m is Extract<ChatMessage, { role: 'system' | 'developer' }> => m.role === 'system' || m.role === 'developer')
    .map((m) => m.content)
    .join('\n\n');
  const input: ResponseInputItem[] = [];
  for (const message of params.messages) {
    if (message.role === 'user') input.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      if (message.content) input.push({ role: 'assistant', content: message.content });
      for (const call of message.tool_calls ?? []) {
        input.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
    } else if (message.role === 'tool') input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: message.content });
  }
  return {
    model: params.model,
    input,
    instructions: instructions || undefined,
    tools: params.tools,
    toolChoice: params.toolChoice,
    reasoningEffort: params.reasoningEffort,
    serviceTier: params.serviceTier,
    maxOutputTokens: params.maxTokens,
    temperature: params.temperature,
    topP: params.topP,
  };
}
