/**
 * The daily budget: a ceiling on today's tokens, or on today's cost when the
 * user priced the models. Off by default. At 80 % the user is warned once; past
 * it the agent asks before each request and `@gateway` says so in its answer.
 */
import { DailyBudget } from '../../settings/common';

import { formatCost, formatTokens, type Totals } from './usageSummary';

export type BudgetLevel = 'off' | 'ok' | 'warning' | 'over';

export interface BudgetStatus {
  level: BudgetLevel;
  /** What is measured: money when a cost budget applies, else tokens. */
  unit: 'tokens' | 'cost';
  used: number;
  limit: number;
}

/** Share of the budget from which the user is warned. */
export const WARNING_SHARE = 0.8;

/** Where today's totals stand against the budget; `priced` says whether any model has a price (a cost budget needs one). */
export function budgetStatus(today: Totals, budget: DailyBudget, priced: boolean): BudgetStatus {
  if (budget.cost !== undefined && priced) return leveled('cost', today.cost, budget.cost);
  if (budget.tokens !== undefined) return leveled('tokens', today.tokens, budget.tokens);
  return { level: 'off', unit: 'tokens', used: today.tokens, limit: 0 };
}

function leveled(unit: 'tokens' | 'cost', used: number, limit: number): BudgetStatus {
  const level: BudgetLevel = used >= limit ? 'over' : used >= limit * WARNING_SHARE ? 'warning' : 'ok';
  return { level, unit, used, limit };
}

/** "812,400 of 1,000,000 tokens (81 %)" or "4.10 of 5.00 (82 %)". */
export function describeBudget(status: BudgetStatus): string {
  const percent = status.limit > 0 ? Math.floor((status.used / status.limit) * 100) : 0;
  const amount =
    status.unit === 'cost'
      ? `${formatCost(status.used)} of ${formatCost(status.limit)}`
      : `${formatTokens(status.used)} of ${formatTokens(status.limit)} tokens`;
  return `${amount} (${percent} %)`;
}

/** The sentence for a warning or an over-budget note; undefined while under 80 % or off. */
export function budgetMessage(status: BudgetStatus): string | undefined {
  if (status.level === 'warning') return `Today's usage is at ${describeBudget(status)} of the daily budget.`;
  if (status.level === 'over') return `Today's daily budget is spent: ${describeBudget(status)}.`;
  return undefined;
}

/**
 * Tells each rise of the level once a day: `warning` when 80 % is passed, `over` when
 * the budget is; nothing on the way down or again the same day.
 */
export class BudgetAlerts {
  private day = '';
  private announced: BudgetLevel = 'ok';

  /** The level to warn of now, if it is new today. */
  next(status: BudgetStatus, day: string): 'warning' | 'over' | undefined {
    if (day !== this.day) {
      this.day = day;
      this.announced = 'ok';
    }
    const rank = RANK[status.level];
    if (rank <= RANK[this.announced]) return undefined;
    this.announced = status.level;
    return status.level === 'warning' || status.level === 'over' ? status.level : undefined;
  }
}

const RANK: Readonly<Record<BudgetLevel, number>> = { off: 0, ok: 0, warning: 1, over: 2 };

/** Whether any model has a price (a cost budget applies only then). */
export function anyPriced(models: Readonly<Record<string, { inputPrice?: number; outputPrice?: number }>>): boolean {
  return Object.values(models).some((entry) => entry.inputPrice !== undefined && entry.outputPrice !== undefined);
}
