/**
 * Stops a model that keeps making the same call with the same arguments: it is
 * stuck, and every repeat costs the user money. A message from the user resets
 * it (addUserMessage), so a call they asked for again runs.
 */
import type { ToolCall } from '../../../gateway/common';
import type { AgentSessionState } from '../../../sessionModel/common';

/** Records the calls of one response; returns the stop reason when the same call came `limit` times in a row. */
export function recordCalls(state: AgentSessionState, calls: ToolCall[], limit: number): string | undefined {
  for (const call of calls) {
    const signature = `${call.name}\u0000${canonicalArguments(call.arguments)}`;
    state.lastCall = state.lastCall?.signature === signature ? { signature, repeats: state.lastCall.repeats + 1 } : { signature, repeats: 1 };
    if (state.lastCall.repeats >= limit) {
      return `The model called ${call.name} with the same arguments ${state.lastCall.repeats} times in a row, so the session was stopped. Steer it with a follow-up message, then continue.`;
    }
  }
  return undefined;
}

/** The same arguments written differently (key order, spacing) are still the same call. */
function canonicalArguments(text: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return text.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}
