/**
 * The collector's authentication headers, in VS Code's secret storage as the API key is (never in settings,
 * where a synced or shared settings file would carry them), and the two commands that set and clear them.
 */
import * as vscode from 'vscode';
import { CollectorHeadersError, parseCollectorHeaders } from '../common';

const SECRET_ID = 'gateway.telemetry.headers';

export class CollectorHeadersStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The headers were set or cleared (in this window or another). */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === SECRET_ID) this.changed.fire();
    });
  }

  /** The headers as a map ({} when none); a stored text that no longer parses is none, and said so in the log by the caller. */
  async headers(): Promise<Record<string, string>> {
    const text = await this.secrets.get(SECRET_ID);
    return text ? parseCollectorHeaders(text) : {};
  }

  async set(text: string): Promise<void> {
    parseCollectorHeaders(text);
    await this.secrets.store(SECRET_ID, text);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_ID);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** **Gateway: Set Collector Headers**: `name=value` pairs, comma-separated, as OTEL_EXPORTER_OTLP_HEADERS takes them. */
export async function setCollectorHeaders(store: CollectorHeadersStore, given?: unknown): Promise<void> {
  const text =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({
          title: 'Gateway: Set Collector Headers',
          prompt: 'Headers your OpenTelemetry collector needs, as name=value pairs separated by commas (percent-encode spaces: Bearer%20token).',
          placeHolder: 'Authorization=Bearer%20…',
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => {
            try {
              parseCollectorHeaders(value);
              return undefined;
            } catch (error) {
              return error instanceof CollectorHeadersError ? error.message : String(error);
            }
          },
        });
  if (text === undefined) return;
  await store.set(text.trim());
  void vscode.window.showInformationMessage('Gateway: the collector headers are saved in secret storage.');
}

export async function clearCollectorHeaders(store: CollectorHeadersStore): Promise<void> {
  await store.clear();
  void vscode.window.showInformationMessage('Gateway: the collector headers are cleared.');
}
