/**
 * Limits on one run of a session (the first run, and each continue or
 * follow-up after it), so an agent cannot spend without bound, yet "continue"
 * always buys another full budget. The session's totals are kept for display.
 */
import { AgentBudgets } from '../../../settings/common';

import type { AgentSessionState } from '../../../sessionModel/common';

/** What one run has used so far. */
export interface RunUsage {
  turns: number;
  totalTokens: number;
  /** Time spent working, without the time spent waiting for the user's approvals. */
  activeMs: number;
}

/** The session's counters when a run starts: the run's usage is measured from them. */
export interface RunStart {
  turns: number;
  totalTokens: number;
}

export function runStartOf(state: AgentSessionState): RunStart {
  return { turns: state.turns, totalTokens: state.usage.totalTokens };
}

export function runUsage(state: AgentSessionState, start: RunStart, activeMs: number): RunUsage {
  return { turns: state.turns - start.turns, totalTokens: state.usage.totalTokens - start.totalTokens, activeMs };
}

/** The reason the run must stop before its next request, or undefined when it may go on. */
export function exceededBudget(used: RunUsage, budgets: AgentBudgets): string | undefined {
  if (used.turns >= budgets.maxTurns) {
    return `This run used its ${budgets.maxTurns} turns ("gateway.agent.maxTurns"). Continue the session to allow ${budgets.maxTurns} more.`;
  }
  if (used.totalTokens >= budgets.maxTokens) {
    const budget = budgets.maxTokens.toLocaleString('en-US');
    return `This run used ${used.totalTokens.toLocaleString('en-US')} tokens, its budget is ${budget} ("gateway.agent.maxTokens"). Continue the session to allow ${budget} more.`;
  }
  if (used.activeMs >= budgets.maxWallTimeMs) {
    const minutes = Math.round(budgets.maxWallTimeMs / 60_000);
    return `This run ran for ${Math.round(used.activeMs / 60_000)} min (not counting waits for your approval), its limit ("gateway.agent.maxMinutes"). Continue the session to allow ${minutes} min more.`;
  }
  return undefined;
}
