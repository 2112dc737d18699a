/**
 * How many tokens each model takes in and gives out. In order: the user's
 * `gateway.models` setting, the window the gateway itself named in a
 * context_length_exceeded answer (remembered per model and base URL), and a
 * conservative default. A wrong window guessed too large is the failure this
 * avoids: the gateway answers 400 and a session cannot go on.
 */
import { ConfiguredModel } from '../../settings/common';

import { MIN_CONTEXT_WINDOW } from '../../gateway/common';

export interface ModelLimits {
  /** Input tokens the model accepts, the whole conversation included. */
  contextWindow: number;
  maxOutputTokens: number;
  /** Where the window comes from: the setting, the gateway's own error, or the default. */
  source: 'setting' | 'learned' | 'default';
}

/** Where learned windows are kept between sessions (VS Code's globalState in the extension). */
export interface LearnedWindowStore {
  get(): Readonly<Record<string, number>>;
  set(windows: Record<string, number>): Promise<void>;
}

export const DEFAULT_CONTEXT_WINDOW = 32_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;
/** Bounds the remembered windows: an entry per model and base URL, the oldest dropped first. */
const MAX_LEARNED = 200;

export class ModelWindows {
  constructor(
    private readonly configured: () => Readonly<Record<string, ConfiguredModel>>,
    private readonly baseUrl: () => string,
    private readonly learned?: LearnedWindowStore,
  ) {}

  limitsOf(model: string): ModelLimits {
    const configured = this.configured();
    const setting = Object.hasOwn(configured, model) ? configured[model] : undefined;
    const learnedWindows = this.learned?.get() ?? {};
    const key = this.keyOf(model);
    const learned = Object.hasOwn(learnedWindows, key) ? learnedWindows[key] : undefined;
    const maxOutputTokens = setting?.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    if (setting?.contextWindow !== undefined) return { contextWindow: setting.contextWindow, maxOutputTokens, source: 'setting' };
    if (learned !== undefined && learned >= MIN_CONTEXT_WINDOW) return { contextWindow: learned, maxOutputTokens, source: 'learned' };
    return { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutputTokens, source: 'default' };
  }

  /** Remembers the window the gateway named for `model` at the current base URL. */
  async learn(model: string, contextWindow: number): Promise<void> {
    if (!this.learned || !(contextWindow >= MIN_CONTEXT_WINDOW)) return;
    const key = this.keyOf(model);
    const windows = { ...this.learned.get() };
    if (windows[key] === contextWindow) return;
    delete windows[key];
    windows[key] = contextWindow;
    const keys = Object.keys(windows);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_LEARNED))) delete windows[old];
    await this.learned.set(windows);
  }

  private keyOf(model: string): string {
    let base: string;
    try {
      base = this.baseUrl();
    } catch {
      base = '';
    }
    return `${base} ${model}`;
  }
}

/** A learned-window store in memory (tests, benches, and a host without storage). */
export function memoryWindowStore(initial: Record<string, number> = {}): LearnedWindowStore {
  let windows = { ...initial };
  return {
    get: () => windows,
    set: async (next) => {
      windows = { ...next };
    },
  };
}
