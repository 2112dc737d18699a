/**
 * Composition of the objects every feature uses (part of the composition root, see extension.ts):
 * the log, the settings, the key and its commands, the gateway client and what it knows of the limits.
 */
import * as vscode from 'vscode';
import { GatewayClient, WatchedSessions, type ModelInfo } from './gateway/common';
import { LimitTracker } from './rateLimits/common';
import { systemClock, type Logger } from './base/common';
import { FileSharedWindow } from './rateLimits/node';
import { FileUsageStorage } from './usage/node';
import { createNodeHttpFetch } from './gateway/node';
import {
  clearApiKey,
  setApiKey,
  type ApiKeyCommandDeps,
  ApiKeyStore,
  CONFIRM_KEY_ORIGIN_COMMAND,
  configuredOrigin,
  confirmKeyOriginFromButton,
  ErrorPresenter,
} from './gateway/vscode';
import { channelLogger } from './base/vscode';
import { createSettingsService } from './settings/vscode';
import { type SettingsService } from './settings/common';
import { UsageLog } from './usage/common';
import type { DeferredTask, TimedStep } from './composeActivation';
import { createTelemetry } from './composeTelemetry';
import type { TeamTelemetry } from './telemetry/common';

/** The objects every area uses: the log, the key, the gateway client and what it knows of the limits. */
export interface Gateway {
  channel: vscode.LogOutputChannel;
  logger: Logger & { recentLines(): string[] };
  userAgent: string;
  keys: ApiKeyStore;
  limits: LimitTracker;
  client: GatewayClient;
  /** The agent sessions the user watches (a chat turn's, the Sessions view's focus): their requests go before the other sessions'. */
  watchedSessions: WatchedSessions;
  /** A client that checks `key` instead of the stored one, with limits of its own. */
  clientWithKey: (key: string) => GatewayClient;
  /** `{site_url}` by the transport's rule; throws the SettingError while no base URL is set. */
  siteUrl: () => string;
  errors: ErrorPresenter;
  /** The `gateway.*` settings, read once and on change. */
  settings: SettingsService;
  /** Every answered request's counts, in global storage (shared by the windows). */
  usageLog: UsageLog;
  /** Export to the team's collector: told of the same records as the usage log; off until the settings turn it on. */
  telemetry: TeamTelemetry;
  /** The extension's version (package.json). */
  version: string;
}

/** `defer` queues work for after activate() has returned (ActivationSteps.defer). */
export function createGateway(context: vscode.ExtensionContext, timed: TimedStep, defer: (name: string, task: DeferredTask) => void): Gateway {
  const channel = timed('gateway: log channel', () => vscode.window.createOutputChannel('Gateway', { log: true }));
  const logger = channelLogger(channel);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0');
  const userAgent = `gateway-vscode/${version} vscode/${vscode.version}`;
  const { service: settings, subscription: settingsSubscription, reportProblems } = timed('gateway: settings', () => createSettingsService(logger));
  defer('refused settings', async () => reportProblems());
  const keys = timed('gateway: key store', () => new ApiKeyStore(context.secrets, () => configuredOrigin(settings)));
  const { sharedWindow, usageLog } = timed('gateway: rate window and usage log', () => ({
    // The windows of this machine share the key's rate window through a file in global storage (see LimitTracker).
    sharedWindow: new FileSharedWindow(vscode.Uri.joinPath(context.globalStorageUri, 'rate-window.json').fsPath),
    usageLog: new UsageLog(new FileUsageStorage(vscode.Uri.joinPath(context.globalStorageUri, 'usage.jsonl').fsPath), systemClock, logger),
  }));
  const telemetry = createTelemetry(settings, logger);
  const limits = timed('gateway: limits', () => new LimitTracker(systemClock, settings.limits(), undefined, sharedWindow));
  // One pool of kept-alive connections for every client of this window (see nodeHttpFetch.ts for why not fetch).
  const http = createNodeHttpFetch();
  const clientOptions = {
    fetch: http.fetch,
    baseUrl: () => settings.requireBaseUrl(),
    siteUrl: () => settings.get('siteUrl'),
    userAgent,
    logger,
  };
  const watchedSessions = new WatchedSessions();
  const client = timed(
    'gateway: client',
    () =>
      new GatewayClient({
        ...clientOptions,
        limits,
        apiKey: keys,
        watchedSessions,
        // One record for both: the exported sums are the usage log's.
        onUsage: (record, timing) => {
          void usageLog.record(record, AbortSignal.timeout(10_000));
          telemetry.requestAnswered(record, timing);
        },
        window: telemetry,
      }),
  );
  const clientWithKey = (key: string) =>
    new GatewayClient({ ...clientOptions, limits: new LimitTracker(systemClock, settings.current().limits), apiKey: { getApiKey: async () => key } });
  context.subscriptions.push(channel, settingsSubscription, keys, { dispose: () => usageLog.today.dispose() }, { dispose: http.close });
  return {
    channel,
    logger,
    userAgent,
    keys,
    limits,
    client,
    watchedSessions,
    clientWithKey,
    siteUrl: () => client.transport.siteUrl(),
    errors: new ErrorPresenter(logger, settings),
    settings,
    usageLog,
    telemetry,
    version,
  };
}

/** After activation: the usage log's days before today are summed into one line each (bounded in time). */
export function rollUpUsageLog(gateway: Gateway, signal: AbortSignal): Promise<void> {
  return gateway.usageLog
    .rollUp(AbortSignal.any([signal, AbortSignal.timeout(60_000)]))
    .catch((error: unknown) => gateway.logger.warn(`usage: the roll-up failed: ${String(error)}`));
}

export function registerKeyCommands(context: vscode.ExtensionContext, gateway: Gateway, onKeyChanged: (models?: ModelInfo[]) => void): void {
  const { keys, limits, errors, clientWithKey } = gateway;
  // A key set or cleared in another window: what was learned of the old key's limits and balance no longer applies.
  keys.onDidChangeKey(() => {
    limits.reset();
    onKeyChanged(undefined);
  });
  // The check has limits of its own, so a key the gateway refuses leaves the current key's state untouched.
  const deps: ApiKeyCommandDeps = { store: keys, clientWithKey, limits, errors, settings: gateway.settings, onKeyChanged };
  context.subscriptions.push(
    vscode.commands.registerCommand('gateway.setApiKey', (key?: unknown) => setApiKey(deps, key)),
    vscode.commands.registerCommand('gateway.clearApiKey', () => clearApiKey(deps)),
    vscode.commands.registerCommand(CONFIRM_KEY_ORIGIN_COMMAND, () => confirmKeyOriginFromButton(keys, gateway.settings, onKeyChanged)),
  );
}
