/**
 * The models the current key may use (GET /v1/models), cached until the key or
 * the base URL changes or the user asks for a refresh. The last good list is
 * remembered across windows, so VS Code's model picker (and with it @gateway,
 * which the Chat view only calls when a model is selected) still works while
 * the gateway refuses to list, e.g. with an empty balance: the request then
 * reaches the gateway and its 402 is shown with a Top up button.
 */
import * as vscode from 'vscode';
import type { GatewayClient, ModelInfo } from '../core/api';

const LAST_GOOD = 'gateway.lastModelList';
/** A failed listing is not asked again for this long, so pickers do not hammer a refusing gateway. */
const FAILURE_PAUSE_MS = 15_000;

export class ModelCatalog implements vscode.Disposable {
  private cached: Promise<ModelInfo[]> | undefined;
  private failedAt = 0;
  private lastFailure: unknown;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly client: GatewayClient,
    private readonly state: vscode.Memento,
    private readonly baseUrl: () => string,
  ) {}

  async models(signal: AbortSignal, options: { refresh?: boolean } = {}): Promise<ModelInfo[]> {
    if (!options.refresh && !this.cached && Date.now() - this.failedAt < FAILURE_PAUSE_MS) throw this.lastFailure;
    if (options.refresh || !this.cached) {
      const request = this.client.listModels({ signal });
      this.cached = request;
      request.then(
        (models) => {
          this.failedAt = 0;
          void this.state.update(LAST_GOOD, { baseUrl: this.baseUrl(), models });
          this.changed.fire();
        },
        (error: unknown) => {
          // A failed listing is not cached: after a short pause the next call asks again.
          if (this.cached === request) this.cached = undefined;
          this.failedAt = Date.now();
          this.lastFailure = error;
        },
      );
    }
    return this.cached;
  }

  /** The last list this gateway gave, from any window (empty when there never was one). */
  lastKnown(): ModelInfo[] {
    const saved = this.state.get<{ baseUrl: string; models: ModelInfo[] }>(LAST_GOOD);
    return saved && saved.baseUrl === safe(this.baseUrl) ? saved.models : [];
  }

  invalidate(): void {
    this.cached = undefined;
    this.failedAt = 0;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function safe(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}
