/**
 * The API key lives in SecretStorage only: never in settings, logs, saved state
 * or error text. It is read on every request, so a new key applies at once.
 */
import * as vscode from 'vscode';
import type { ApiKeyProvider } from '../core/ports';

const SECRET_ID = 'gateway.apiKey';

export class ApiKeyStore implements ApiKeyProvider, vscode.Disposable {
  private cached: string | undefined;
  private loaded = false;
  private readonly keyChanged = new vscode.EventEmitter<void>();
  /** The key was set or cleared in another window: what this window learned of the old one no longer applies. */
  readonly onDidChangeKey = this.keyChanged.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === SECRET_ID) void this.reload();
    });
  }

  async getApiKey(): Promise<string | undefined> {
    if (!this.loaded) {
      this.cached = (await this.secrets.get(SECRET_ID)) || undefined;
      this.loaded = true;
    }
    return this.cached;
  }

  async hasKey(): Promise<boolean> {
    return (await this.getApiKey()) !== undefined;
  }

  async store(key: string): Promise<void> {
    await this.write(key, () => this.secrets.store(SECRET_ID, key));
  }

  async clear(): Promise<void> {
    await this.write(undefined, () => this.secrets.delete(SECRET_ID));
  }

  dispose(): void {
    this.subscription.dispose();
    this.keyChanged.dispose();
  }

  /** Known before the write: SecretStorage may report this very change before the write resolves. */
  private async write(key: string | undefined, persist: () => Thenable<void>): Promise<void> {
    const before = { cached: this.cached, loaded: this.loaded };
    this.cached = key;
    this.loaded = true;
    try {
      await persist();
    } catch (error) {
      ({ cached: this.cached, loaded: this.loaded } = before);
      throw error;
    }
  }

  /**
   * SecretStorage reports this window's own store() and clear() too; those are
   * handled where they happen, so only a key this window did not know counts.
   */
  private async reload(): Promise<void> {
    const known = this.loaded ? this.cached : undefined;
    const wasLoaded = this.loaded;
    this.loaded = false;
    const current = await this.getApiKey();
    if (!wasLoaded || current !== known) this.keyChanged.fire();
  }
}
