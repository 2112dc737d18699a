/**
 * The status bar item: model and what is left of this minute's limits; a live
 * countdown while a 429 is waited out; the error colour and "Top up" after a 402; the error colour
 * and the fix while the Gateway cannot be reached, refuses the key or has no usable address.
 */
import * as vscode from 'vscode';
import type { LimitTracker } from '../../rateLimits/common';
import { formatStatus, type StatusState, type StatusView } from '../common/statusView';
import { showWalkthroughProgress } from './walkthroughProgress';

export interface StatusSources {
  limits: LimitTracker;
  model: () => Promise<string | undefined>;
  hasKey: () => Promise<boolean>;
  /** Undefined while the settings give no site (see formatStatus). */
  siteUrl: () => string | undefined;
  /** The last request's input tokens and its model's window. */
  lastRequest?: () => { inputTokens: number; contextWindow?: number } | undefined;
  /** Today's usage line from the usage log. */
  today?: () => string | undefined;
}

const ERROR_BACKGROUND = new vscode.ThemeColor('statusBarItem.errorBackground');
const WARNING_BACKGROUND = new vscode.ThemeColor('statusBarItem.warningBackground');
const BACKGROUNDS: Record<StatusState, vscode.ThemeColor | undefined> = {
  normal: undefined,
  'no-key': undefined,
  waiting: WARNING_BACKGROUND,
  depleted: ERROR_BACKGROUND,
  unreachable: ERROR_BACKGROUND,
  'key-refused': ERROR_BACKGROUND,
  'address-invalid': ERROR_BACKGROUND,
};
const OPEN_BASE_URL: vscode.Command = { title: 'Open Settings', command: 'workbench.action.openSettings', arguments: ['gateway.baseUrl'] };
/** What a click does in each state: the fix where there is one, else the model picker. */
const CLICKS: Record<StatusState, string | vscode.Command> = {
  normal: 'gateway.selectModel',
  waiting: 'gateway.selectModel',
  depleted: 'gateway.openBilling',
  'no-key': 'gateway.setApiKey',
  'key-refused': 'gateway.setApiKey',
  unreachable: OPEN_BASE_URL,
  'address-invalid': OPEN_BASE_URL,
};

export class GatewayStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('gateway.status', vscode.StatusBarAlignment.Right, 100);
  private readonly subscriptions: vscode.Disposable[] = [];
  private countdown: ReturnType<typeof setInterval> | undefined;
  private view: StatusView | undefined;

  constructor(private readonly sources: StatusSources) {
    this.item.name = 'Gateway';
    this.subscriptions.push(sources.limits.onChange(() => void this.refresh()));
    // The text waits for the key's secret storage in any case: the composition calls refresh() once activate() has returned.
    this.item.show();
  }

  /** What the item shows now (read by the end-to-end tests through the extension's API). */
  current(): StatusView | undefined {
    return this.view;
  }

  async refresh(): Promise<void> {
    const model = await this.sources.model().catch(() => undefined);
    const view = formatStatus({
      model,
      hasKey: await this.sources.hasKey(),
      snapshot: this.sources.limits.snapshot(),
      siteUrl: this.sources.siteUrl(),
      now: Date.now(),
      lastRequest: this.sources.lastRequest?.(),
      today: this.sources.today?.(),
    });
    this.view = view;
    showWalkthroughProgress({
      baseUrl: this.sources.siteUrl() !== undefined,
      apiKey: view.state !== 'no-key',
      model: view.state !== 'no-key' && Boolean(model),
    });
    this.item.text = view.text;
    const tooltip = new vscode.MarkdownString(view.tooltip.join('\n\n'));
    tooltip.isTrusted = {
      enabledCommands: ['gateway.selectModel', 'gateway.setApiKey', 'gateway.showUsage', 'gateway.showLog', 'workbench.action.openSettings'],
    };
    this.item.tooltip = tooltip;
    this.item.backgroundColor = BACKGROUNDS[view.state];
    this.item.command = CLICKS[view.state];
    this.item.accessibilityInformation = { label: view.text.replace(/\$\([a-z-]+\)\s*/g, ''), role: 'button' };
    this.tick(view.state === 'waiting');
  }

  /** Re-renders every second while waiting out a 429, so the countdown moves. */
  private tick(waiting: boolean): void {
    if (waiting && this.countdown === undefined) {
      this.countdown = setInterval(() => void this.refresh(), 1000);
    } else if (!waiting && this.countdown !== undefined) {
      clearInterval(this.countdown);
      this.countdown = undefined;
    }
  }

  dispose(): void {
    this.tick(false);
    this.item.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
