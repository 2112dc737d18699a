/**
 * "Gateway: Show Usage": a webview of the usage log's sums (usage/common/usageHtml.ts
 * draws it), refreshed as requests are recorded, with Export as CSV and links that
 * open the costliest sessions. Also the budget's voice: the 80 % warning, the
 * question before an agent request past the budget, the note in `@gateway`'s answer.
 */
import * as vscode from 'vscode';
import { counted, type Logger } from '../../base/common';
import { anyPriced, budgetMessage, budgetStatus, BudgetAlerts, type BudgetStatus } from '../common/dailyBudget';
import type * as UsageHtml from '../common/usageHtml';
import type { UsageLog } from '../common/usageLog';
import { dayOf, USAGE_SURFACES, type UsageSurface } from '../common/usageRecord';
import { describeTotals, exportGoneMessage, summarize, usageCsv, type Totals, type UsageSummary } from '../common/usageSummary';
import { priceOf, type SettingsService } from '../../settings/common';

export const SHOW_USAGE_COMMAND = 'gateway.showUsage';
const OPEN_SESSION_COMMAND = 'gateway.agent.openTranscript';

/** What the view showed last (read by the end-to-end tests through the extension's API). */
export interface UsageViewState {
  html: string;
  today: Totals;
  month: Totals;
  bySurface: Partial<Record<UsageSurface, Totals>>;
  byModel: Record<string, Totals>;
  sessions: { sessionId: string; tokens: number }[];
}

export interface UsageDeps {
  log: UsageLog;
  logger: Logger;
  /** gateway.models (the prices) and gateway.budget.*. */
  settings: SettingsService;
  extensionUri: vscode.Uri;
  /** Saved sessions' titles by id. */
  sessionTitles: () => Promise<Map<string, string>>;
  /** Told when today's line (todayText) changed, so the status bar shows it. */
  onTodayChanged?: () => void;
}

export class UsageView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private last: UsageViewState | undefined;
  private readonly alerts = new BudgetAlerts();
  private readonly subscriptions: vscode.Disposable[] = [];
  private rendering: Promise<void> | undefined;
  private todayText: string | undefined;

  constructor(private readonly deps: UsageDeps) {
    this.subscriptions.push(vscode.commands.registerCommand(SHOW_USAGE_COMMAND, () => this.show()));
    const listener = deps.log.onRecord(() => {
      void this.afterRecord();
    });
    this.subscriptions.push({ dispose: () => listener.dispose() });
    // At midnight the tooltip's line starts the new day (the running total reads the log again).
    const newDay = deps.log.today.onNewDay(() => void this.refreshToday(AbortSignal.timeout(10_000)));
    this.subscriptions.push({ dispose: () => newDay.dispose() });
  }

  /** Reads today's total for the status bar's tooltip; the composition root calls it once activation is over. */
  async readToday(signal: AbortSignal): Promise<void> {
    await this.refreshToday(AbortSignal.any([signal, AbortSignal.timeout(10_000)]));
  }

  /** Today's line for the status bar's tooltip, as of the last record (undefined until the log was read). */
  todayLine(): string | undefined {
    return this.todayText;
  }

  state(): UsageViewState | undefined {
    return this.last;
  }

  async show(): Promise<void> {
    if (this.panel) this.panel.reveal();
    else this.panel = this.createPanel();
    await this.render();
  }

  /** Today's totals and the budget's standing: the running total, with what any window appended to the log since the last look. */
  async today(signal: AbortSignal): Promise<{ totals: Totals; priced: boolean; budget: BudgetStatus }> {
    const settings = this.deps.settings.current();
    const models = settings.models;
    const totals = await this.deps.log.today.totals((model) => priceOf(models, model), signal);
    const priced = anyPriced(models);
    return { totals, priced, budget: budgetStatus(totals, settings.budget, priced) };
  }

  /** The status bar's tooltip line: "Today: 12,345 tokens · cost 0.42", and the budget's note. */
  private async refreshToday(signal: AbortSignal): Promise<BudgetStatus | undefined> {
    try {
      const { totals, priced, budget } = await this.today(signal);
      const note = budgetMessage(budget);
      this.todayText = `Today: ${describeTotals(totals, priced)} in ${counted(totals.requests, 'request')}${note ? `. ${note}` : ''}`;
      this.deps.onTodayChanged?.();
      return budget;
    } catch (error) {
      this.deps.logger.warn(`usage: could not read the usage log (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    }
  }

  /** The note `@gateway` puts before its answer past the budget; undefined under it. */
  async chatNote(signal: AbortSignal): Promise<string | undefined> {
    if (!budgetSet(this.deps.settings)) return undefined;
    const { budget } = await this.today(signal);
    return budget.level === 'over' ? `${budgetMessage(budget)} This request is sent anyway; see **Gateway: Show Usage**.` : undefined;
  }

  /** Before each agent request: past the budget the user is asked (modal); a refusal stops the session with the reason. */
  async spendGate(signal: AbortSignal): Promise<string | undefined> {
    if (!budgetSet(this.deps.settings)) return undefined;
    const { budget } = await this.today(signal);
    if (budget.level !== 'over') return undefined;
    const send = 'Send Anyway';
    const choice = await vscode.window.showWarningMessage(
      `${budgetMessage(budget)} Send the agent's next request anyway?`,
      { modal: true, detail: 'Each agent request asks until the day ends or the budget (gateway.budget.*) is raised.' },
      send,
    );
    return choice === send ? undefined : `Stopped: ${budgetMessage(budget)}`;
  }

  private async afterRecord(): Promise<void> {
    try {
      const budget = await this.refreshToday(AbortSignal.timeout(10_000));
      const alert = budget && this.alerts.next(budget, dayOf(Date.now()));
      if (alert) {
        void vscode.window.showWarningMessage(budgetMessage(budget!)!, 'Show Usage').then((choice) => {
          if (choice) void this.show();
        });
      }
      if (this.panel) await this.render();
    } catch (error) {
      this.deps.logger.warn(`usage: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private createPanel(): vscode.WebviewPanel {
    const media = vscode.Uri.joinPath(this.deps.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel('gateway.usage', 'Gateway Usage', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
    });
    panel.iconPath = vscode.Uri.joinPath(media, 'icon.png');
    panel.onDidDispose(() => (this.panel = undefined), undefined, this.subscriptions);
    panel.webview.onDidReceiveMessage((message: unknown) => void this.onMessage(message), undefined, this.subscriptions);
    return panel;
  }

  /** One render at a time; a record during one renders again after it. */
  private async render(): Promise<void> {
    while (this.rendering) await this.rendering;
    this.rendering = this.renderNow().finally(() => (this.rendering = undefined));
    await this.rendering;
  }

  private async renderNow(): Promise<void> {
    const panel = this.panel;
    if (!panel) return;
    const signal = AbortSignal.timeout(30_000);
    const settings = this.deps.settings.current();
    const models = settings.models;
    const summary = summarize(await this.deps.log.entries(signal), (model) => priceOf(models, model), Date.now());
    const budget = budgetStatus(summary.today, settings.budget, anyPriced(models));
    const titles = await this.deps.sessionTitles().catch(() => new Map<string, string>());
    const media = vscode.Uri.joinPath(this.deps.extensionUri, 'media');
    const html = usageHtml().usagePage(
      { summary, sessionTitles: titles, budget },
      {
        cspSource: panel.webview.cspSource,
        nonce: nonce(),
        scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'usage.js')).toString(),
        styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'usage.css')).toString(),
      },
    );
    panel.webview.html = html;
    this.last = viewState(html, summary);
  }

  private async onMessage(message: unknown): Promise<void> {
    if (typeof message !== 'object' || message === null) return;
    const { type, sessionId } = message as { type?: unknown; sessionId?: unknown };
    if (type === 'exportCsv') await this.exportCsv();
    // Only a session the view listed: the page is not trusted to name any command argument.
    else if (type === 'openSession' && typeof sessionId === 'string' && this.last?.sessions.some((s) => s.sessionId === sessionId)) {
      await vscode.commands.executeCommand(OPEN_SESSION_COMMAND, sessionId);
    }
  }

  private async exportCsv(): Promise<void> {
    const target = await vscode.window.showSaveDialog({
      saveLabel: 'Export',
      filters: { CSV: ['csv'] },
      defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? this.deps.extensionUri, `gateway-usage-${dayOf(Date.now())}.csv`),
    });
    if (!target) return;
    try {
      const models = this.deps.settings.current().models;
      const csv = usageCsv(await this.deps.log.entries(AbortSignal.timeout(30_000)), (model) => priceOf(models, model));
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(csv));
      void vscode.window
        .showInformationMessage(`Usage exported to ${target.fsPath || target.toString()}.`, 'Open')
        .then((choice) => (choice === 'Open' ? openExport(target) : undefined));
    } catch (error) {
      void vscode.window.showErrorMessage(`Could not export the usage: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    this.panel?.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function viewState(html: string, summary: UsageSummary): UsageViewState {
  const bySurface: Partial<Record<UsageSurface, Totals>> = {};
  const byModel: Record<string, Totals> = Object.create(null) as Record<string, Totals>;
  for (const day of summary.days) {
    for (const surface of USAGE_SURFACES) {
      const totals = day.bySurface.get(surface);
      if (totals) bySurface[surface] = add(bySurface[surface], totals);
    }
    for (const [model, totals] of day.byModel) byModel[model] = add(byModel[model], totals);
  }
  return {
    html,
    today: summary.today,
    month: summary.month,
    bySurface,
    byModel,
    sessions: summary.sessions.map((s) => ({ sessionId: s.sessionId, tokens: s.totals.tokens })),
  };
}

function add(a: Totals | undefined, b: Totals): Totals {
  if (!a) return { ...b };
  return {
    requests: a.requests + b.requests,
    input: a.input + b.input,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    tokens: a.tokens + b.tokens,
    cost: a.cost + b.cost,
    unpricedTokens: a.unpricedTokens + b.unpricedTokens,
  };
}

/** A CSP nonce: 128 random bits. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether a daily budget is set: without one (the default) no request needs the log read first. */
function budgetSet(settings: SettingsService): boolean {
  const { budget } = settings.current();
  return budget.tokens !== undefined || budget.cost !== undefined;
}

/**
 * The Show Usage page's markup, loaded when the page first opens: in the production build this require is
 * rewritten to `./usage-page.js`, the file esbuild.mjs builds beside the bundle (Node caches it).
 */
function usageHtml(): typeof UsageHtml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return require('../common/usageHtml') as typeof UsageHtml;
}

/** Opens an export; one moved or deleted since says so (the notification's button outlives the file). */
async function openExport(target: vscode.Uri): Promise<unknown> {
  try {
    await vscode.workspace.fs.stat(target);
  } catch {
    return vscode.window.showInformationMessage(exportGoneMessage(target.fsPath || target.toString()));
  }
  return vscode.window.showTextDocument(target);
}
