// Keys, their models, balances and limits.
import { ALL_MODELS, type KeyConfig } from './types';

export interface KeyState {
  key: string;
  models: string[];
  initialBalance: number;
  balance: number;
  rpm: number;
  tpm: number;
  rateLimitHeaders: boolean;
}

export const BUILT_IN_KEYS: KeyConfig[] = [{ key: 'demo-key' }, { key: 'empty-key', balance: 0 }, { key: 'small-key', models: ['gw-chat-mini'] }];

export const MODEL_CREATED: Record<string, number> = {
  'gw-chat': 1735689600,
  'gw-chat-pro': 1738368000,
  'gw-chat-mini': 1740787200,
  'gw-code': 1743465600,
};

export interface KeyDefaults {
  rpm: number;
  tpm: number;
  rateLimitHeaders: boolean;
}

export class KeyStore {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly defaults: KeyDefaults,
    configs: KeyConfig[],
  ) {
    for (const cfg of [...BUILT_IN_KEYS, ...configs]) this.add(cfg);
  }

  add(cfg: KeyConfig): KeyState {
    if (typeof cfg?.key !== 'string' || cfg.key.length === 0) throw new Error('KeyConfig.key must be a non-empty string');
    const balance = cfg.balance ?? 1e12;
    const state: KeyState = {
      key: cfg.key,
      models: cfg.models ? [...cfg.models] : [...ALL_MODELS],
      initialBalance: balance,
      balance,
      rpm: cfg.rpm ?? this.defaults.rpm,
      tpm: cfg.tpm ?? this.defaults.tpm,
      rateLimitHeaders: cfg.rateLimitHeaders ?? this.defaults.rateLimitHeaders,
    };
    this.keys.set(cfg.key, state);
    return state;
  }

  get(key: string): KeyState | undefined {
    return this.keys.get(key);
  }

  all(): KeyState[] {
    return [...this.keys.values()];
  }

  charge(key: string, tokens: number): void {
    const state = this.keys.get(key);
    if (state) state.balance = Math.max(0, state.balance - tokens);
  }

  restoreBalances(): void {
    for (const state of this.keys.values()) state.balance = state.initialBalance;
  }
}
