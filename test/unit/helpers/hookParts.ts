// What the hook tests share: a remembered-approvals store in memory and a logger that keeps its lines.
import type { HookMemory } from '../../../src/customization/common/hooks';
import type { Logger } from '../../../src/base/common/ports';

/** The approvals' memory (VS Code's globalState in the extension), here a map. */
export function memory(): HookMemory {
  const values = new Map<string, unknown>();
  return { get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => void values.set(key, value) };
}

/** A logger whose info, warn and error lines a test reads back. */
export function logged(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string) => void lines.push(message);
  return { lines, trace() {}, debug() {}, info: keep, warn: keep, error: keep };
}
