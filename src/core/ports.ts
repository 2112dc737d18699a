/**
 * The small interfaces the core needs from its host. The core never reaches for
 * timers, the network or storage on its own, so it runs unchanged in VS Code,
 * in plain Node tests and in benchmarks.
 */

/** Wall-clock time and waiting; tests substitute one that records waits. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Where the API key comes from (SecretStorage in VS Code); asked on every request so a new key applies at once. */
export interface ApiKeyProvider {
  getApiKey(signal: AbortSignal): Promise<string | undefined>;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
