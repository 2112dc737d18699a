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
import { systemClock } from '../../base/common';

const LAST_GOOD = 'gateway.lastModelList';
/** A failed listing is not asked again for this long, so pickers do not hammer a refusing gateway. */
const FAILURE_PAUSE_MS = 15_000;

export class ModelCatalog implements vscode.Disposable {
  /** One listing shared by all callers, on its own signal: a caller that gives up never cancels it for the others. */
  private readonly listing: SharedListing<ModelInfo[]>;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    client: GatewayClient,
    private readonly state: vscode.Memento,
    private readonly baseUrl: () => string,
  ) {
    this.listing = new SharedListing(
      // Only a refresh the user asked for may wait for the key's limits: any other listing is background and never spends a slot a user request waits for.
      (signal, asked) => client.listModels({ signal, background: !asked }),
      (models) => {
        void this.state.update(LAST_GOOD, { baseUrl: safe(this.baseUrl), models });
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
    const saved = this.state.get<{ baseUrl: string; models: ModelInfo[] }>(LAST_GOOD);
    return saved && saved.baseUrl === safe(this.baseUrl) ? saved.models : [];
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

function safe(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}
