/**
 * What the status bar item says, from the model and the limit snapshot: pure,
 * so it is tested without VS Code.
 */
import type { LimitSnapshot } from '../../rateLimits/common';

export type StatusState = 'normal' | 'waiting' | 'depleted' | 'no-key' | 'unreachable' | 'key-refused' | 'address-invalid';

/** The command link that opens the Settings editor on `gateway.baseUrl` (its argument URI-encoded JSON, as command links take it). */
export const OPEN_BASE_URL_SETTING_LINK = `command:workbench.action.openSettings?${encodeURIComponent(JSON.stringify(['gateway.baseUrl']))}`;

export interface StatusView {
  state: StatusState;
  text: string;
  /** Markdown lines for the tooltip. */
  tooltip: string[];
}

/** `siteUrl` is undefined while the settings give none (no base URL): the tooltip then has no Limits and Billing links. */
export function formatStatus(input: {
  model: string | undefined;
  hasKey: boolean;
  snapshot: LimitSnapshot;
  siteUrl: string | undefined;
  now: number;
  /** The last request's input tokens and, when known, its model's window. */
  lastRequest?: { inputTokens: number; contextWindow?: number };
  /** Today's usage line ("Today: 12,345 tokens · cost 0.42 in 7 requests"), from the usage log. */
  today?: string;
}): StatusView {
  const { snapshot, now } = input;
  const fullModel = input.model || 'no model';
  const model = shortModel(fullModel);
  const site = input.siteUrl?.replace(/\/+$/, '');
  const siteLinks = site === undefined ? '' : `[Limits](${site}/cabinet/limits) · [Billing](${site}/cabinet/billing) · `;
  const tooltip = [
    `**Gateway** — ${escapeMarkdown(fullModel)}`,
    '',
    ...limitLines(snapshot, now),
    `Tokens spent in this window: ${snapshot.tokensSpentThisWindow.toLocaleString('en-US')}`,
    ...(input.lastRequest
      ? [
          `Last request: ${input.lastRequest.inputTokens.toLocaleString('en-US')} input tokens${input.lastRequest.contextWindow ? ` of a ${compact(input.lastRequest.contextWindow)} window` : ''}`,
        ]
      : []),
    ...(input.today ? [escapeMarkdown(input.today)] : []),
    sourceNote(snapshot),
    '',
    `${siteLinks}[Usage](command:gateway.showUsage) · [Select model](command:gateway.selectModel)`,
  ];
  if (!input.hasKey) {
    return {
      state: 'no-key',
      text: '$(key) Gateway: Set API Key',
      tooltip: ['**Gateway** — no API key is set.', '', '[Set API Key](command:gateway.setApiKey)'],
    };
  }
  // What the last request learned of the Gateway itself comes before its figures: they are the last good ones, not the present.
  const problem = snapshot.reachProblem ? [escapeMarkdown(snapshot.reachProblem), ''] : [];
  if (snapshot.reach === 'address_invalid') {
    return {
      state: 'address-invalid',
      text: '$(gear) Gateway: check gateway.baseUrl',
      tooltip: ['**The Gateway address is not usable.**', '', ...problem, `[Open Settings](${OPEN_BASE_URL_SETTING_LINK})`],
    };
  }
  if (snapshot.reach === 'unreachable') {
    return {
      state: 'unreachable',
      text: '$(debug-disconnect) Gateway unreachable',
      tooltip: [
        '**The Gateway could not be reached** — limits unknown until it answers.',
        '',
        ...problem,
        `[Open Settings](${OPEN_BASE_URL_SETTING_LINK}) · [Show Log](command:gateway.showLog)`,
      ],
    };
  }
  if (snapshot.reach === 'key_refused') {
    return {
      state: 'key-refused',
      text: '$(key) Gateway: key refused',
      tooltip: ['**The Gateway refused the API key (401).**', '', ...problem, '[Set API Key](command:gateway.setApiKey)'],
    };
  }
  if (snapshot.balance === 'depleted') {
    return {
      state: 'depleted',
      text: `$(error) ${model} · Top up`,
      tooltip: ['**Balance is empty.** Requests fail with 402 until you top up.', ...tooltip.slice(1)],
    };
  }
  if (snapshot.rateLimitedUntil !== undefined && snapshot.rateLimitedUntil > now) {
    const seconds = Math.ceil((snapshot.rateLimitedUntil - now) / 1000);
    return {
      state: 'waiting',
      text: `$(watch) ${model} · rate limited, ${seconds}s`,
      tooltip: [`**Rate limited** — retrying in ${seconds} s.`, ...tooltip.slice(1)],
    };
  }
  return { state: 'normal', text: `$(sparkle) ${model} · ${limitsText(snapshot)}`, tooltip };
}

/** What is left of the key's limits, but only limits the Gateway reported: before it has, the configured ones are a guess and are not shown as its. */
function limitsText(snapshot: LimitSnapshot): string {
  if (snapshot.limits === 'unknown') return 'limits not known yet';
  if (snapshot.limits === 'not_sent') return 'limits not reported';
  return `${snapshot.requestsRemaining}/${snapshot.requestLimit} req · ${compact(snapshot.tokensRemaining)} tok`;
}

function limitLines(snapshot: LimitSnapshot, now: number): string[] {
  if (snapshot.limits === 'unknown') {
    return [`Limits: not known yet — the Gateway reports them with its first answer to this key.`];
  }
  return [
    `Requests this minute: ${snapshot.requestsRemaining} of ${snapshot.requestLimit} left${resetText(snapshot.requestsResetAt, now)}`,
    `Tokens this minute: ${compact(snapshot.tokensRemaining)} of ${compact(snapshot.tokenLimit)} left${resetText(snapshot.tokensResetAt, now)}`,
  ];
}

function sourceNote(snapshot: LimitSnapshot): string {
  if (snapshot.limits === 'not_sent') return '_The gateway sends no limit headers: these are the configured limits, counted by the extension._';
  if (snapshot.limits === 'unknown') return '_Until then the extension paces by the configured limits._';
  return snapshot.source === 'local' ? "_The gateway's limits, counted by the extension since its last report._" : '_As reported by the gateway._';
}

/** Longest model name the status bar text shows; the tooltip has the whole one. */
export const MAX_MODEL_IN_TEXT = 32;

/** The model as status bar text: bounded, and never read as a `$(icon)`. */
function shortModel(model: string): string {
  const flat = model.replace(/\s+/g, ' ').replace(/\$\(/g, '$\u200b(');
  return flat.length > MAX_MODEL_IN_TEXT ? `${flat.slice(0, MAX_MODEL_IN_TEXT - 1)}…` : flat;
}

/** Text shown literally in a markdown tooltip (no links, emphasis or line breaks from it). */
function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>|~]/g, '\\$&');
}

function resetText(at: number | undefined, now: number): string {
  if (at === undefined || at <= now) return '';
  return ` (frees in ${Math.ceil((at - now) / 1000)} s)`;
}

/** 200000 → 200k, 1500000 → 1.5M. */
export function compact(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 10_000) return `${Math.floor(n / 1000)}k`;
  return String(n);
}

function trim(n: number): string {
  return (Math.floor(n * 10) / 10).toString();
}
