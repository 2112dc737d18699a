/** Limits on one run of a session, so an agent cannot spend without bound. */
import type { AgentSessionState } from './sessionState';

export interface AgentBudgets {
  maxTurns: number;
  maxTokens: number;
  maxWallTimeMs: number;
  /** The same call with the same arguments this many times in a row stops the session. */
  maxRepeatedCalls: number;
}

export const DEFAULT_BUDGETS: AgentBudgets = {
  maxTurns: 30,
  maxTokens: 1_000_000,
  maxWallTimeMs: 30 * 60_000,
  maxRepeatedCalls: 3,
};

/** The reason the session must stop before its next request, or undefined when it may go on. */
export function exceededBudget(state: AgentSessionState, budgets: AgentBudgets): string | undefined {
  if (state.turns >= budgets.maxTurns) {
    return `The session used its ${budgets.maxTurns} turns ("gateway.agent.maxTurns"). Continue it to allow more.`;
  }
  if (state.usage.totalTokens >= budgets.maxTokens) {
    return `The session used ${state.usage.totalTokens.toLocaleString('en-US')} tokens, its budget is ${budgets.maxTokens.toLocaleString('en-US')} ("gateway.agent.maxTokens"). Continue it to allow more.`;
  }
  if (state.activeMs >= budgets.maxWallTimeMs) {
    return `The session ran for ${Math.round(state.activeMs / 60_000)} min, its limit ("gateway.agent.maxMinutes"). Continue it to allow more.`;
  }
  return undefined;
}
