/**
 * The models the current key may use (GET /v1/models), cached until the key or
 * the base URL changes or the user asks for a refresh. The last good list is
 * remembered across windows, so VS Code's model picker (and with it @gateway,
 * which the Chat view only calls when a model is selected) still works while
 * the gateway refuses to list, e.g. with an empty balance: the request then
 * reaches the gateway and its 402 is shown with a Top up button.
 */
import * as vscode from 'vscode';
import { BackgroundSkippedError, type GatewayClient, type ModelInfo } from '../../gateway/common';
import { SharedListing } from '../common/sharedListing';
import { ModelListMemory } from '../common/pickerModels';
import { systemClock } from '../../base/common';
/** A failed listing is not asked again for this long, so pickers do not hammer a refusing gateway. */
const FAILURE_PAUSE_MS = 15_000;

export class ModelCatalog implements vscode.Disposable {
  /** One listing shared by all callers, on its own signal: a caller that gives up never cancels it for the others. */
  private readonly listing: SharedListing<ModelInfo[]>;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly memory: ModelListMemory;

  constructor(client: GatewayClient, state: vscode.Memento, baseUrl: () => string) {
    this.memory = new ModelListMemory(state, baseUrl);
    this.listing = new SharedListing(
      // Only a refresh the user asked for may wait for the key's limits: any other listing is background and never spends a slot a user request waits for.
      (signal, asked) => client.listModels({ signal, background: !asked }),
      (models) => {
        this.memory.remember(models);
        this.changed.fire();
      },
      systemClock,
      FAILURE_PAUSE_MS,
    );
  }

  /** Rejects with AbortError only when this caller's `signal` aborts. */
  async models(signal: AbortSignal, options: { refresh?: boolean } = {}): Promise<ModelInfo[]> {
    try {
      return await this.listing.get(signal, options);
    } catch (error) {
      if (!(error instanceof BackgroundSkippedError)) throw error;
      // Skipped to leave the key's limits to the user: the last list stands in; with none yet, the list is needed and waits its turn.
      const last = this.lastKnown();
      return last.length > 0 ? last : this.listing.get(signal, { refresh: true });
    }
  }

  /** The last list this gateway gave, from any window (empty when there never was one). */
  lastKnown(): ModelInfo[] {
    return this.memory.lastKnown();
  }

  /** What VS Code's picker lists while the Gateway gives no list: the last list of any address (pickerModels.ts). */
  offeredWhileAway(): ModelInfo[] {
    return this.memory.offered();
  }

  /** The key changed and its check listed the models: that list is the new key's, so no second request is spent on it. */
  seed(models: ModelInfo[]): void {
    this.listing.seed(models);
    this.changed.fire();
  }

  invalidate(): void {
    this.listing.invalidate();
    this.changed.fire();
  }

  dispose(): void {
    this.listing.dispose();
    this.changed.dispose();
  }
}
