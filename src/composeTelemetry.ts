/**
 * Composition of the export to a team's OpenTelemetry collector (part of the composition root, see extension.ts):
 * the headers in secret storage and their commands, and the exporter turned on, off or re-pointed as the
 * `gateway.telemetry.*` settings and the headers change. Off by default: then nothing here loads the SDK.
 */
import * as vscode from 'vscode';
import { exporterConfigFrom, TeamTelemetry } from './telemetry/common';
import { loadOtlpExporter } from './telemetry/node';
import { clearCollectorHeaders, CollectorHeadersStore, setCollectorHeaders } from './telemetry/vscode';
import { priceOf, type SettingsService } from './settings/common';
import type { Logger } from './base/common';

/** The telemetry every reporter is handed (the client, the transport, the agent); off until startTelemetry reads the settings. */
export function createTelemetry(settings: SettingsService, logger: Logger): TeamTelemetry {
  return new TeamTelemetry({
    loadExporter: loadOtlpExporter,
    logger,
    priceOf: (model) => priceOf(settings.current().models, model),
    onProblem: (message) => void vscode.window.showWarningMessage(`Gateway telemetry: ${message}`),
  });
}

export function registerTelemetryCommands(context: vscode.ExtensionContext): CollectorHeadersStore {
  const headers = new CollectorHeadersStore(context.secrets);
  context.subscriptions.push(
    headers,
    vscode.commands.registerCommand('gateway.setCollectorHeaders', (text?: unknown) => setCollectorHeaders(headers, text)),
    vscode.commands.registerCommand('gateway.clearCollectorHeaders', () => clearCollectorHeaders(headers)),
  );
  return headers;
}

/** After activation: export as the settings say, and again whenever they or the headers change; stopped (and flushed) with the window by deactivate(). */
export async function startTelemetry(
  context: vscode.ExtensionContext,
  parts: { telemetry: TeamTelemetry; headers: CollectorHeadersStore; settings: SettingsService; logger: Logger; serviceVersion: string },
  signal: AbortSignal,
): Promise<void> {
  const { telemetry, headers, settings, logger, serviceVersion } = parts;
  let warnedNoEndpoint = false;
  let warnedPlainHeaders = false;
  const apply = async (signal: AbortSignal) => {
    const wanted = settings.current().telemetry;
    if (!wanted.enabled) return telemetry.configure(undefined, signal);
    if (wanted.endpoint === '' && !warnedNoEndpoint) {
      warnedNoEndpoint = true;
      logger.warn('telemetry: "gateway.telemetry.enabled" is on but "gateway.telemetry.endpoint" is empty: nothing is exported.');
    }
    let collectorHeaders: Record<string, string> = {};
    try {
      collectorHeaders = await headers.headers();
    } catch (error) {
      logger.warn(
        `telemetry: the stored collector headers do not read (${error instanceof Error ? error.message : String(error)}); exporting without them. Set them again with "Gateway: Set Collector Headers".`,
      );
    }
    if (wanted.endpoint.startsWith('http://') && Object.keys(collectorHeaders).length > 0 && !warnedPlainHeaders) {
      warnedPlainHeaders = true;
      logger.warn('telemetry: the collector headers go to an http:// endpoint, unencrypted: use https:// unless the collector is on this machine.');
    }
    await telemetry.configure(exporterConfigFrom(wanted, collectorHeaders, { serviceVersion, hostId: vscode.env.machineId }), signal);
  };
  const reapply = () => void apply(AbortSignal.timeout(15_000)).catch((error: unknown) => logger.warn(`telemetry: ${String(error)}`));
  context.subscriptions.push(
    settings.onDidChange((changed) => {
      if (changed.some((name) => name.startsWith('telemetry.'))) reapply();
    }),
    headers.onDidChange(reapply),
    // deactivate() sends what is left and VS Code waits for it (extension.ts); this stops the exporter when the extension is only disposed.
    { dispose: () => void telemetry.dispose(AbortSignal.timeout(3_000)).catch(() => undefined) },
  );
  await apply(signal);
}
