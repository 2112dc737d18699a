// Per-key sliding-window limits (requests and tokens) and the x-ratelimit-* headers.
import type { KeyState } from './keys';

export interface WindowEntry {
  t: number;
  tokens: number;
}

export type Admission = { ok: true; entry: WindowEntry } | { ok: false; retryAfterSec: number; what: string };

/** Go-style duration as the interface sends it: 250ms, 1s, 1m30s, 6m0s, 1h0m0s (whole seconds rounded up above 1s). */
export function formatDuration(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

export class RateLimiter {
  private readonly windows = new Map<string, WindowEntry[]>();

  constructor(
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  private entries(key: string, now: number): WindowEntry[] {
    let list = this.windows.get(key);
    if (!list) {
      list = [];
      this.windows.set(key, list);
    }
    while (list.length > 0 && list[0].t + this.windowMs <= now) list.shift();
    return list;
  }

  /** Admits and records a request of `promptTokens`, or says how long to wait. */
  admit(key: KeyState, promptTokens: number, now = this.clock()): Admission {
    const list = this.entries(key.key, now);
    let waitMs = 0;
    const what: string[] = [];
    if (list.length >= key.rpm) {
      waitMs = Math.max(waitMs, list[list.length - key.rpm].t + this.windowMs - now);
      what.push(`requests per minute (limit ${key.rpm})`);
    }
    let used = list.reduce((sum, e) => sum + e.tokens, 0);
    if (used + promptTokens > key.tpm) {
      let tokenWait = this.windowMs; // a prompt larger than the whole limit never fits: report a full window
      for (const e of list) {
        used -= e.tokens;
        if (used + promptTokens <= key.tpm) {
          tokenWait = e.t + this.windowMs - now;
          break;
        }
      }
      waitMs = Math.max(waitMs, tokenWait);
      what.push(`tokens per minute (limit ${key.tpm}, requested ${promptTokens})`);
    }
    if (what.length > 0) return { ok: false, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)), what: what.join(' and ') };
    const entry = { t: now, tokens: promptTokens };
    list.push(entry);
    return { ok: true, entry };
  }

  /**
   * Reset values as the interface means them: time until the limit is fully
   * replenished, i.e. until the newest entry (request / entry with tokens)
   * leaves the window. Not until one slot frees: a client that trusted that
   * would send the whole limit again and meet 429s.
   */
  headers(key: KeyState, now = this.clock()): Record<string, string> {
    const list = this.entries(key.key, now);
    const used = list.reduce((sum, e) => sum + e.tokens, 0);
    const newest = list.at(-1);
    const newestTokens = list.findLast((e) => e.tokens > 0);
    return {
      'x-ratelimit-limit-requests': String(key.rpm),
      'x-ratelimit-remaining-requests': String(Math.max(0, key.rpm - list.length)),
      'x-ratelimit-reset-requests': formatDuration(newest ? newest.t + this.windowMs - now : 0),
      'x-ratelimit-limit-tokens': String(key.tpm),
      'x-ratelimit-remaining-tokens': String(Math.max(0, key.tpm - used)),
      'x-ratelimit-reset-tokens': formatDuration(newestTokens ? newestTokens.t + this.windowMs - now : 0),
    };
  }

  /** Takes an admitted entry back out: a 429 is not counted, even an injected one. */
  forget(key: KeyState, entry: WindowEntry): void {
    const list = this.windows.get(key.key);
    const at = list ? list.indexOf(entry) : -1;
    if (list && at >= 0) list.splice(at, 1);
  }

  reset(): void {
    this.windows.clear();
  }
}
