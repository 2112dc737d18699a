/**
 * Composition root: builds the objects, registers them with VS Code, nothing else.
 * Each rule it wires lives in its module (model defaults in modelChoice.ts, limit
 * defaults in settings/common/valueSets.ts, the site URL in the transport); the compose*.ts files beside
 * this one only connect them, one area of the extension each (the gateway, the models,
 * the agent, chat and inline edit), and may import every layer as this file may.
 */
import * as vscode from 'vscode';
import { confirmKeyOrigin } from './gateway/vscode';
import type { ModelInfo } from './gateway/common';
import type { GatewayStatusBar } from './status/vscode';
import { UsageView } from './usage/vscode';
import { gatewayTestApi, type GatewayExtensionApi } from './testApi';
import { createGateway, registerKeyCommands, rollUpUsageLog, type Gateway } from './composeGateway';
import { createModels, createStatusBar, registerModelAndSiteCommands, type Models } from './composeModels';
import { recoverAgentSessions, registerAgent } from './composeAgent';
import { ActivationSteps, describeSteps, type TimedStep } from './composeActivation';
import { registerChatParticipant, registerInlineEdit } from './composeChat';
import { registerTelemetryCommands, startTelemetry } from './composeTelemetry';

/** What must finish before the window closes (VS Code awaits deactivate's promise, not the subscriptions' dispose). */
let beforeClose: ((signal: AbortSignal) => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): GatewayExtensionApi {
  const steps = new ActivationSteps();
  // Filled in once the agent is registered (the usage view lists sessions, the agent asks the budget).
  let agentStore: () => Promise<{ id: string; title: string }[]> = async () => [];
  let refreshStatus = () => {};
  const gateway = createGateway(
    context,
    (name, build) => steps.step(name, build),
    (name, task) => steps.defer(name, task),
  );
  const models = steps.step('models', () => createModels(context, gateway));
  const usage = steps.step(
    'usage view',
    () =>
      new UsageView({
        log: gateway.usageLog,
        logger: gateway.logger,
        settings: gateway.settings,
        extensionUri: context.extensionUri,
        sessionTitles: async () => new Map((await agentStore()).map((s) => [s.id, s.title])),
        onTodayChanged: () => refreshStatus(),
      }),
  );
  context.subscriptions.push(usage);
  const statusBar = steps.step('status bar', () => createStatusBar(context, gateway, models, () => usage.todayLine()));
  refreshStatus = () => void statusBar.refresh();
  steps.defer('status bar text', () => statusBar.refresh());
  const onKeyChanged = (listed?: ModelInfo[]) => {
    // The key check's own model list is the new key's: seeding it spares a second request of the key's limits.
    if (listed) models.catalog.seed(listed);
    else models.catalog.invalidate();
    models.languageModels.refresh();
    void statusBar.refresh();
  };
  const collectorHeaders = steps.step('commands', () => {
    registerKeyCommands(context, gateway, onKeyChanged);
    registerModelAndSiteCommands(context, gateway, models);
    return registerTelemetryCommands(context);
  });
  const timed: TimedStep = (name, build) => steps.step(name, build);
  const agent = steps.step('agent', () => registerAgent({ context, gateway, models, spendGate: (signal) => usage.spendGate(signal), timed }));
  agentStore = () => agent.sessionStore.list();
  const chat = steps.step('chat participant', () => registerChatParticipant(context, gateway, models, agent.sessions, (signal) => usage.chatNote(signal)));
  const inlineEdits = steps.step('inline edit', () => registerInlineEdit(context, gateway, models));
  steps.step('settings watch', () => watchSettings(context, gateway, models, statusBar, onKeyChanged));
  // None of these is needed for the first paint; each runs once activate() has returned.
  steps.defer('interrupted sessions and checkpoint clean-up', (signal) =>
    recoverAgentSessions({ sessions: agent.sessions, logger: gateway.logger, state: context.workspaceState }, signal),
  );
  steps.defer("today's usage", (signal) => usage.readToday(signal));
  steps.defer('usage roll-up', (signal) => rollUpUsageLog(gateway, signal));
  // Off by default: then this reads the settings and returns; on, it loads the exporter (dist/telemetry.js) after activation.
  steps.defer('telemetry', (signal) =>
    startTelemetry(
      context,
      { telemetry: gateway.telemetry, headers: collectorHeaders, settings: gateway.settings, logger: gateway.logger, serviceVersion: gateway.version },
      signal,
    ),
  );
  // What the exporter recorded since its last export goes out as the window closes, bounded so a slow collector does not hold the close.
  beforeClose = (signal) => gateway.telemetry.dispose(signal);
  context.subscriptions.push(steps.finish(gateway.logger));
  const activation = steps.activation();
  gateway.logger.info(
    `activated ${gateway.userAgent} in ${activation.ms.toFixed(1)} ms, ${activation.cpuMs.toFixed(1)} ms CPU (slowest steps: ${describeSteps(steps.slowest(3))})`,
  );

  return gatewayTestApi({
    status: () => statusBar.current(),
    hasApiKey: () => gateway.keys.hasKey(),
    lastChatAnswer: () => chat.lastAnswer(),
    lastChatNotes: () => chat.lastNotes(),
    thinkingParts: () => chat.thinkingParts(),
    activation,
    activationSteps: steps.slowest(Number.MAX_SAFE_INTEGER),
    inlineEdit: () => inlineEdits.status(),
    recentLog: () => gateway.logger.recentLines(),
    usageView: () => usage.state(),
    waitingApprovals: () => agent.approvals.waiting(),
    savedSessions: () => agent.sessionStore.list(),
  });
}

export async function deactivate(): Promise<void> {
  const close = beforeClose;
  beforeClose = undefined;
  await close?.(AbortSignal.timeout(CLOSE_BOUND_MS)).catch(() => undefined);
}

/** Within VS Code's own wait for deactivate (about 5 s) with room to spare. */
const CLOSE_BOUND_MS = 3_000;

/** A changed `gateway.*` setting applies at once (a refused value is announced by the settings service itself). */
function watchSettings(context: vscode.ExtensionContext, gateway: Gateway, models: Models, statusBar: GatewayStatusBar, onKeyChanged: () => void): void {
  const { settings } = gateway;
  context.subscriptions.push(
    settings.onDidChange((changed) => {
      if (changed.includes('baseUrl')) {
        // What was learned of the old address (its limits, whether it answered) is not the new one's: the status bar says "not known yet" until it answers.
        gateway.limits.reset();
        onKeyChanged();
        // The key stays with the origin it was set for until the user says otherwise.
        void confirmKeyOrigin(gateway.keys, settings, onKeyChanged);
      }
      if (changed.includes('chatModel') || changed.includes('models')) models.languageModels.refresh();
      if (changed.includes('chatModel')) void models.selection.showInChatView();
      gateway.limits.setConfiguredLimits(settings.current().limits);
      void statusBar.refresh();
    }),
  );
}
