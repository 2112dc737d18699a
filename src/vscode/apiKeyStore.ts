/**
 * The API key lives in SecretStorage only: never in settings, logs, saved state
 * or error text. It is read on every request, so a new key applies at once.
 */
import type * as vscode from 'vscode';
import type { ApiKeyProvider } from '../core/ports';

const SECRET_ID = 'gateway.apiKey';

export class ApiKeyStore implements ApiKeyProvider {
  private cached: string | undefined;
  private loaded = false;

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Another window may set or clear the key; forget our copy when it does.
    secrets.onDidChange((event) => {
      if (event.key === SECRET_ID) this.loaded = false;
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
    await this.secrets.store(SECRET_ID, key);
    this.cached = key;
    this.loaded = true;
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_ID);
    this.cached = undefined;
    this.loaded = true;
  }
}
