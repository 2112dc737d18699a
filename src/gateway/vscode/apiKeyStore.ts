/**
 * The API key lives in SecretStorage only: never in settings, logs, saved state
 * or error text. It is read on every request, so a new key applies at once.
 * It is stored with the origin it was checked against (see gateway/common/keyOrigin):
 * the transport sends it nowhere else.
 */
import * as vscode from 'vscode';
import type { BoundKey } from '../common/keyOrigin';
import type { ApiKeyProvider } from '../common/gatewayPorts';

const SECRET_ID = 'gateway.apiKey';

/** The stored form: `{"key", "origin"}`; a bare key is what versions before the binding stored. */
function decode(stored: string | undefined): { key: string; origin: string | undefined } | undefined {
  if (!stored) return undefined;
  try {
    const value = JSON.parse(stored) as Partial<BoundKey> | null;
    if (value && typeof value.key === 'string' && value.key && typeof value.origin === 'string') return { key: value.key, origin: value.origin };
  } catch {
    // A bare key: not JSON.
  }
  return { key: stored, origin: undefined };
}

export class ApiKeyStore implements ApiKeyProvider, vscode.Disposable {
  private cached: { key: string; origin: string | undefined } | undefined;
  private loaded = false;
  private readonly keyChanged = new vscode.EventEmitter<void>();
  /** The key was set or cleared in another window: what this window learned of the old one no longer applies. */
  readonly onDidChangeKey = this.keyChanged.event;
  private readonly subscription: vscode.Disposable;

  /**
   * @param originForLegacyKey where a key stored before the binding was meant to go:
   * the user's own base URL (a workspace cannot set it), read once when such a key is first loaded.
   */
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly originForLegacyKey: () => string | undefined,
  ) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === SECRET_ID) void this.reload();
    });
  }

  async getApiKey(): Promise<string | undefined> {
    return (await this.load())?.key;
  }

  async keyOrigin(): Promise<string | undefined> {
    return (await this.load())?.origin;
  }

  /** Lets the stored key go to `origin` from now on (the user confirmed it). */
  async rebind(origin: string): Promise<void> {
    const current = await this.load();
    if (current) await this.store(current.key, origin);
  }

  private async load(): Promise<{ key: string; origin: string | undefined } | undefined> {
    if (!this.loaded) {
      this.cached = decode(await this.secrets.get(SECRET_ID));
      this.loaded = true;
      if (this.cached && this.cached.origin === undefined) await this.bindLegacyKey(this.cached.key);
    }
    return this.cached;
  }

  /** A key from before the binding is bound to the user's base URL; with none set it stays unbound until one is. */
  private async bindLegacyKey(key: string): Promise<void> {
    const origin = this.originForLegacyKey();
    if (origin !== undefined) await this.store(key, origin);
  }

  async hasKey(): Promise<boolean> {
    return (await this.getApiKey()) !== undefined;
  }

  async store(key: string, origin: string): Promise<void> {
    const bound: BoundKey = { key, origin };
    await this.write(bound, () => this.secrets.store(SECRET_ID, JSON.stringify(bound)));
  }

  async clear(): Promise<void> {
    await this.write(undefined, () => this.secrets.delete(SECRET_ID));
  }

  dispose(): void {
    this.subscription.dispose();
    this.keyChanged.dispose();
  }

  /** Known before the write: SecretStorage may report this very change before the write resolves. */
  private async write(key: { key: string; origin: string | undefined } | undefined, persist: () => Thenable<void>): Promise<void> {
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
    const current = await this.load();
    if (!wasLoaded || current?.key !== known?.key || current?.origin !== known?.origin) this.keyChanged.fire();
  }
}
