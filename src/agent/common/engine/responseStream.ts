/**
 * One streamed response gathered into a `CompletionResult`, its text and
 * reasoning passed on as they come when the user sees them (a turn) and kept
 * quiet when not (a compaction's summary). Notes on outputs nobody asked for are
 * passed on (a few a step) but never kept: the result is what the history sends back.
 * Also the session's usage count.
 */
import { ShownNotes, type CompletionResult, type GatewayClient, type RespondParams, type Usage } from '../../../gateway/common';
import type { OnAgentEvent } from '../../../sessionModel/common';
import type { AgentSessionState } from '../../../sessionModel/common';

export async function streamResponse(
  client: GatewayClient,
  state: AgentSessionState,
  params: RespondParams,
  signal: AbortSignal,
  onEvent: OnAgentEvent,
  shown: boolean,
): Promise<CompletionResult> {
  const events = client.respondStream(params, {
    signal,
    onRetry: (notice) => onEvent({ type: 'retry', notice }),
    origin: { surface: 'agent', sessionId: state.id },
  });
  const result: CompletionResult = { id: '', model: params.model, text: '', reasoning: '', toolCalls: [], finishReason: 'stop', usage: undefined };
  const notes = new ShownNotes();
  const note = (text: string | undefined) => {
    if (shown && text !== undefined) onEvent({ type: 'note', text });
  };
  for await (const event of events) {
    if (event.type === 'note') note(notes.take(event.text));
    else if (event.type === 'response') result.id = event.id;
    else if (event.type === 'text') {
      result.text += event.text;
      if (shown) onEvent({ type: 'text', text: event.text });
    } else if (event.type === 'reasoning') {
      result.reasoning += event.text;
      if (shown) onEvent({ type: 'reasoning', text: event.text });
    } else if (event.type === 'tool_call') result.toolCalls.push(event.call);
    else if (event.type === 'usage') result.usage = event.usage;
    else if (event.type === 'done') result.finishReason = event.finishReason;
  }
  note(notes.rest());
  return result;
}

/** Adds a response's usage to the session's. */
export function addUsage(state: AgentSessionState, usage: Usage | undefined): void {
  if (!usage) return;
  state.usage.inputTokens += usage.inputTokens;
  state.usage.outputTokens += usage.outputTokens;
  state.usage.reasoningTokens += usage.reasoningTokens;
  state.usage.totalTokens += usage.totalTokens;
}
