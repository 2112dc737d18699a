/** One log line per kind, once per window: the customisation readers run at every session and question. */
import type { Logger } from '../../base/common';

/** Lines already logged, per logger: a line is logged once in a window, not at every run or question. */
const logged = new WeakMap<Logger, Set<string>>();
const MAX_LOGGED = 256;

export function logOnce(logger: Logger | undefined, lines: readonly string[]): void {
  if (logger === undefined) return;
  let seen = logged.get(logger);
  if (seen === undefined) logged.set(logger, (seen = new Set()));
  for (const line of lines) {
    if (seen.has(line)) continue;
    if (seen.size >= MAX_LOGGED) seen.clear();
    seen.add(line);
    logger.warn(line);
  }
}
