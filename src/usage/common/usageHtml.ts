/**
 * The usage view's page, as a pure function of the summary: charts are SVG drawn
 * here (no chart library, nothing fetched), colours come from the editor's theme
 * through media/usage.css, and the Content-Security-Policy lets in only the view's
 * own stylesheet and its one nonce'd script. Model names and session titles are
 * the gateway's and the user's text: every one is escaped.
 */
import { counted } from '../../base/common';
import { budgetMessage, type BudgetStatus } from './dailyBudget';
import { SURFACE_LABELS, USAGE_SURFACES, type UsageSurface } from './usageRecord';
import { groupSmall, membersText, modelColour, shareText, surfaceColour, type Slice } from './chartSeries';
import { describeTotals, formatCost, formatTokens, type DaySummary, type Totals, type UsageSummary } from './usageSummary';

export interface UsagePageAssets {
  /** The webview's `cspSource`: where its own assets come from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export interface UsagePageInput {
  summary: UsageSummary;
  /** Session titles by id, for the costliest sessions list (a session no longer saved shows its id). */
  sessionTitles: ReadonlyMap<string, string>;
  budget?: BudgetStatus;
}

/** Models drawn as their own series; the rest are summed as "Other models". */
export const MODEL_SERIES = 5;

export function usagePage(input: UsagePageInput, assets: UsagePageAssets): string {
  const { summary } = input;
  const csp = [
    "default-src 'none'",
    `style-src ${assets.cspSource}`,
    `img-src ${assets.cspSource}`,
    `script-src 'nonce-${assets.nonce}'`,
    "font-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp.replace(/[&"<>]/g, (c) => ESCAPES[c]!)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeHtml(assets.styleUri)}">
<title>Gateway Usage</title>
</head>
<body>
<header>
<h1>Gateway usage</h1>
<button id="export" type="button">Export as CSV…</button>
</header>
${budgetNote(input.budget)}
${figures(summary)}
${summary.models.length === 0 ? '<p class="empty">No requests in the last 30 days yet.</p>' : charts(summary)}
${sessionList(summary, input.sessionTitles)}
<p class="note">${summary.priced ? 'Costs use the prices per million tokens in <code>gateway.models</code>; models without a price count in tokens only.' : 'Add prices per model (<code>inputPrice</code>, <code>outputPrice</code> per million tokens) to <code>gateway.models</code> to see costs.'} Recorded on this computer only: counts, never prompts or answers.</p>
<script nonce="${escapeHtml(assets.nonce)}" src="${escapeHtml(assets.scriptUri)}"></script>
</body>
</html>`;
}

function budgetNote(budget: BudgetStatus | undefined): string {
  const message = budget && budgetMessage(budget);
  return message ? `<p class="budget budget-${budget!.level}" role="status">${escapeHtml(message)}</p>` : '';
}

function figures(summary: UsageSummary): string {
  const figure = (label: string, totals: Totals, id: string) =>
    `<div class="figure" id="${id}"><div class="label">${label}</div><div class="value">${escapeHtml(
      summary.priced ? formatCost(totals.cost) : formatTokens(totals.tokens),
    )}</div><div class="detail">${escapeHtml(figureDetail(totals, summary.priced))}</div></div>`;
  const unit = summary.priced ? 'cost' : 'tokens';
  return `<section class="figures">${figure(`Today's ${unit}`, summary.today, 'today')}${figure(`This month's ${unit}`, summary.month, 'month')}</section>`;
}

/**
 * What a figure's line under its number says: never the number again (the cost when priced, else the tokens),
 * but what it is made of: "1,200 in, 300 out · 4 requests", or with prices "1,500 tokens · 4 requests".
 */
export function figureDetail(totals: Totals, priced: boolean): string {
  const requests = counted(totals.requests, 'request', formatTokens(totals.requests));
  if (!priced) return `${formatTokens(totals.input)} in, ${formatTokens(totals.output)} out · ${requests}`;
  const unpriced = totals.unpricedTokens > 0 ? ` (${formatTokens(totals.unpricedTokens)} without a price)` : '';
  return `${formatTokens(totals.tokens)} tokens${unpriced} · ${requests}`;
}

type Series = Slice<DaySummary>;

function charts(summary: UsageSummary): string {
  const tokens = (t: Totals | undefined) => t?.tokens ?? 0;
  const sum = (value: (day: DaySummary) => number) => summary.days.reduce((total, day) => total + value(day), 0);
  const slice = (key: string, label: string, colour: number, value: (day: DaySummary) => number): Series => {
    const total = sum(value);
    return { key, label, colour, total, members: [{ key, label, total, value }], value };
  };
  const byModel = (value: (model: string) => (day: DaySummary) => number) =>
    summary.models.map((model) => slice(model, model, modelColour(summary.models, model), value(model)));
  const modelSeries = groupSmall(
    byModel((model) => (d) => tokens(d.byModel.get(model))),
    { otherLabel: 'Other models', maxSlices: MODEL_SERIES },
  );
  const surfaceSeries = groupSmall(
    USAGE_SURFACES.map((surface: UsageSurface) => slice(surface, SURFACE_LABELS[surface], surfaceColour(surface), (d) => tokens(d.bySurface.get(surface)))),
    { otherLabel: 'Other' },
  );
  const parts = [
    chart('by-model', 'Tokens per day, by model', summary.days, modelSeries, formatTokens),
    chart('by-surface', 'Tokens per day, by where they came from', summary.days, surfaceSeries, formatTokens),
  ];
  if (summary.priced) {
    const costSeries = groupSmall(
      byModel((model) => (d) => d.byModel.get(model)?.cost ?? 0),
      { otherLabel: 'Other models', maxSlices: MODEL_SERIES },
    );
    parts.push(chart('cost', 'Cost per day (priced models)', summary.days, costSeries, formatCost));
  }
  return `<div class="charts">\n${parts.join('\n')}\n</div>`;
}

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 64;
const BOTTOM = 24;
const TOP = 8;

/** A stacked bar per day, one colour per series; every bar part has a tooltip with its exact figure. */
function chart(id: string, title: string, days: readonly DaySummary[], series: readonly Series[], format: (n: number) => string): string {
  const totals = days.map((day) => series.reduce((sum, s) => sum + s.value(day), 0));
  const max = niceCeiling(Math.max(0, ...totals));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = (WIDTH - LEFT) / days.length;
  const barWidth = Math.max(2, step * 0.7);
  const y = (value: number) => TOP + plotHeight - (max > 0 ? (value / max) * plotHeight : 0);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map((share) => {
      const at = y(max * share).toFixed(1);
      return `<line class="grid" x1="${LEFT}" x2="${WIDTH}" y1="${at}" y2="${at}"/><text class="axis" x="${LEFT - 6}" y="${at}" text-anchor="end" dominant-baseline="middle">${escapeHtml(format(max * share))}</text>`;
    })
    .join('');
  const bars = days
    .map((day, i) => {
      let base = 0;
      const x = (LEFT + i * step + (step - barWidth) / 2).toFixed(1);
      const parts = series.map((s) => {
        const value = s.value(day);
        if (value <= 0) return '';
        const top = y(base + value);
        const height = y(base) - top;
        base += value;
        const members = s.members.length > 1 ? ` (${membersText(s.members, format, day)})` : '';
        return `<rect class="colour-${s.colour}" x="${x}" y="${top.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${Math.max(height, 0.5).toFixed(1)}"><title>${escapeHtml(`${day.day} · ${s.label}: ${format(value)}${members}`)}</title></rect>`;
      });
      // Every fifth day counted back from today; today's label ends at the chart's right edge.
      const last = i === days.length - 1;
      const label =
        (days.length - 1 - i) % 5 === 0
          ? `<text class="axis" x="${(last ? WIDTH : LEFT + i * step + step / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="${last ? 'end' : 'middle'}">${day.day.slice(5)}</text>`
          : '';
      return parts.join('') + label;
    })
    .join('');
  // Every slice in the legend with its total and share, so a sliver too thin to hover is still read; a group lists its members.
  const sum = series.reduce((total, s) => total + s.total, 0);
  const legend = series
    .map((s) => {
      const title = s.members.length > 1 ? ` title="${escapeHtml(membersText(s.members, format))}"` : '';
      return `<li${title}><span class="swatch colour-${s.colour}"></span>${escapeHtml(s.label)} <span class="figure-of">${escapeHtml(shareText(s.total, sum, format))}</span></li>`;
    })
    .join('');
  return `<section class="chart" id="${id}">
<h2>${escapeHtml(title)}</h2>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}">${grid}${bars}</svg>
<ul class="legend">${legend}</ul>
</section>`;
}

/** 0, or the least of 1, 2, 2.5, 5 × 10ⁿ at or above `value`, so the axis reads in round numbers. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 0;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const factor of [1, 2, 2.5, 5, 10]) if (factor * magnitude >= value) return factor * magnitude;
  return 10 * magnitude;
}

function sessionList(summary: UsageSummary, titles: ReadonlyMap<string, string>): string {
  if (summary.sessions.length === 0) return '';
  const rows = summary.sessions
    .map((session) => {
      const title = titles.get(session.sessionId) ?? session.sessionId;
      return `<tr><td><a href="#" class="session" data-session="${escapeHtml(session.sessionId)}">${escapeHtml(title)}</a></td><td>${escapeHtml(
        session.models.join(', '),
      )}</td><td class="number">${formatTokens(session.totals.requests)}</td><td class="number">${escapeHtml(describeTotals(session.totals, summary.priced))}</td></tr>`;
    })
    .join('');
  return `<section id="sessions">
<h2>${summary.priced ? 'Costliest' : 'Largest'} agent sessions</h2>
<table><thead><tr><th>Session</th><th>Model</th><th class="number">Requests</th><th class="number">Spent</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}

/** Text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
