/**
 * The sums the usage view, the status bar and the budget show: per day, model,
 * surface and session, in tokens, and in money for the models the user gave a
 * price. A model without a price is never given one: its tokens are counted as
 * unpriced instead.
 */
import { ModelPrice } from '../../settings/common';

import { dayOf, type TokenCounts, type UsageEntry, type UsageSurface } from './usageRecord';

export type PriceOf = (model: string) => ModelPrice | undefined;

export interface Totals extends TokenCounts {
  requests: number;
  /** Input plus output (reasoning is part of output). */
  tokens: number;
  /** The cost of the tokens of priced models. */
  cost: number;
  /** Tokens of models without a price: not in `cost`. */
  unpricedTokens: number;
}

export interface DaySummary {
  day: string;
  totals: Totals;
  byModel: Map<string, Totals>;
  bySurface: Map<UsageSurface, Totals>;
}

export interface SessionSummary {
  sessionId: string;
  models: string[];
  totals: Totals;
  lastTime: number;
}

export interface UsageSummary {
  /** The last DAYS_SHOWN local days, oldest first, today last; days without requests included. */
  days: DaySummary[];
  today: Totals;
  month: Totals;
  /** Every model of the shown days, most tokens first. */
  models: string[];
  /** Whether any model of the shown days has a price: the view shows money only then. */
  priced: boolean;
  /** Agent sessions of the shown days, costliest first (most tokens first without prices). */
  sessions: SessionSummary[];
}

export const DAYS_SHOWN = 30;
export const SESSIONS_SHOWN = 10;

export function emptyTotals(): Totals {
  return { requests: 0, input: 0, output: 0, reasoning: 0, tokens: 0, cost: 0, unpricedTokens: 0 };
}

/** Adds one entry's requests and tokens (and their cost, when its model has a price) to `totals`. */
export function addTo(totals: Totals, entry: TokenCounts & { model: string }, requests: number, priceOf: PriceOf): void {
  const tokens = entry.input + entry.output;
  totals.requests += requests;
  totals.input += entry.input;
  totals.output += entry.output;
  totals.reasoning += entry.reasoning;
  totals.tokens += tokens;
  const price = priceOf(entry.model);
  if (price) totals.cost += (entry.input * price.inputPerMillion + entry.output * price.outputPerMillion) / 1_000_000;
  else totals.unpricedTokens += tokens;
}

/** The entries summed for the view, with `now` as today. */
export function summarize(entries: readonly UsageEntry[], priceOf: PriceOf, now: number): UsageSummary {
  const days = lastDays(now, DAYS_SHOWN).map((day): DaySummary => ({ day, totals: emptyTotals(), byModel: new Map(), bySurface: new Map() }));
  const byDay = new Map(days.map((d) => [d.day, d]));
  const today = dayOf(now);
  const monthPrefix = today.slice(0, 8);
  const month = emptyTotals();
  const modelTokens = new Map<string, number>();
  const sessions = new Map<string, SessionSummary>();
  for (const entry of entries) {
    const day = entry.kind === 'day' ? entry.day : dayOf(entry.time);
    const requests = entry.kind === 'day' ? entry.requests : 1;
    if (day.startsWith(monthPrefix) && day <= today) addTo(month, entry, requests, priceOf);
    const shown = byDay.get(day);
    if (!shown) continue;
    addTo(shown.totals, entry, requests, priceOf);
    addTo(slot(shown.byModel, entry.model), entry, requests, priceOf);
    addTo(slot(shown.bySurface, entry.surface), entry, requests, priceOf);
    modelTokens.set(entry.model, (modelTokens.get(entry.model) ?? 0) + entry.input + entry.output);
    if (entry.kind === 'request' && entry.sessionId !== undefined) addSession(sessions, entry.sessionId, entry, priceOf);
  }
  const models = [...modelTokens.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([model]) => model);
  return {
    days,
    today: byDay.get(today)?.totals ?? emptyTotals(),
    month,
    models,
    priced: models.some((model) => priceOf(model) !== undefined),
    sessions: [...sessions.values()].sort((a, b) => b.totals.cost - a.totals.cost || b.totals.tokens - a.totals.tokens).slice(0, SESSIONS_SHOWN),
  };
}

/** Today's totals alone (the status bar and the budget): the same sums, without the rest. */
export function todayTotals(entries: readonly UsageEntry[], priceOf: PriceOf, now: number): Totals {
  const today = dayOf(now);
  const totals = emptyTotals();
  for (const entry of entries) {
    if ((entry.kind === 'day' ? entry.day : dayOf(entry.time)) === today) addTo(totals, entry, entry.kind === 'day' ? entry.requests : 1, priceOf);
  }
  return totals;
}

function addSession(sessions: Map<string, SessionSummary>, sessionId: string, entry: UsageEntry & { kind: 'request' }, priceOf: PriceOf): void {
  const session = sessions.get(sessionId) ?? { sessionId, models: [], totals: emptyTotals(), lastTime: 0 };
  addTo(session.totals, entry, 1, priceOf);
  if (!session.models.includes(entry.model)) session.models.push(entry.model);
  session.lastTime = Math.max(session.lastTime, entry.time);
  sessions.set(sessionId, session);
}

function slot<K>(map: Map<K, Totals>, key: K): Totals {
  let totals = map.get(key);
  if (!totals) {
    totals = emptyTotals();
    map.set(key, totals);
  }
  return totals;
}

/** The local days ending with today's, oldest first (stepping by calendar day, so a DST change does not skip or repeat one). */
export function lastDays(now: number, count: number): string[] {
  const date = new Date(now);
  const days: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    days.push(dayOf(new Date(date.getFullYear(), date.getMonth(), date.getDate() - i, 12).getTime()));
  }
  return days;
}

/** 1234567 → "1,234,567". */
export function formatTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A cost in the user's currency: two decimals, four for amounts under one cent (never rounded to a made-up 0.00 when something was spent). */
export function formatCost(amount: number): string {
  if (amount > 0 && amount < 0.01) return amount.toFixed(4);
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** "12,345 tokens", with the cost when `priced` ("12,345 tokens · 0.42", plus the tokens that have no price). */
export function describeTotals(totals: Totals, priced: boolean): string {
  const tokens = `${formatTokens(totals.tokens)} tokens`;
  if (!priced) return tokens;
  const unpriced = totals.unpricedTokens > 0 ? ` (${formatTokens(totals.unpricedTokens)} tokens without a price)` : '';
  return `${tokens} · cost ${formatCost(totals.cost)}${unpriced}`;
}

/** The export notification's Open, when the file is no longer where it was written: why, and what to do now. */
export function exportGoneMessage(path: string): string {
  return `The usage export ${path} is no longer there (moved or deleted since), so there is nothing to open. Export it again with "Export as CSV…" on the Gateway Usage page.`;
}

/** The log as CSV: one row per request (and per rolled-up day), values quoted, cells that a spreadsheet would run as a formula defused. */
export function usageCsv(entries: readonly UsageEntry[], priceOf: PriceOf): string {
  const header = ['day', 'time', 'model', 'endpoint', 'surface', 'session', 'requests', 'input_tokens', 'output_tokens', 'reasoning_tokens', 'status', 'cost'];
  const rows = entries.map((entry) => {
    const totals = emptyTotals();
    addTo(totals, entry, entry.kind === 'day' ? entry.requests : 1, priceOf);
    const cost = priceOf(entry.model) ? totals.cost.toFixed(6) : '';
    return entry.kind === 'day'
      ? [entry.day, '', entry.model, '', entry.surface, '', entry.requests, entry.input, entry.output, entry.reasoning, 'rolled-up', cost]
      : [
          dayOf(entry.time),
          new Date(entry.time).toISOString(),
          entry.model,
          entry.endpoint,
          entry.surface,
          entry.sessionId ?? '',
          1,
          entry.input,
          entry.output,
          entry.reasoning,
          entry.status,
          cost,
        ];
  });
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(value: string | number): string {
  let text = String(value);
  // A cell starting with = + - @ (or a tab or carriage return) is a formula to a spreadsheet; a model name is the gateway's text.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}
