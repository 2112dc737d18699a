/**
 * The models the current key may use (GET /v1/models), cached until the key or
 * the base URL changes or the user asks for a refresh.
 */
import * as vscode from 'vscode';
import type { GatewayClient, ModelInfo } from '../core/api';

export class ModelCatalog implements vscode.Disposable {
  private cached: Promise<ModelInfo[]> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: GatewayClient) {}

  async models(signal: AbortSignal, options: { refresh?: boolean } = {}): Promise<ModelInfo[]> {
    if (options.refresh || !this.cached) {
      const request = this.client.listModels({ signal });
      this.cached = request;
      // A failed listing is not cached: the next call asks again.
      request.catch(() => {
        if (this.cached === request) this.cached = undefined;
      });
      void request.then(() => this.changed.fire(), () => undefined);
    }
    return this.cached;
  }

  invalidate(): void {
    this.cached = undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
