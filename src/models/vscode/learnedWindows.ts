import type * as vscode from 'vscode';
import type { LearnedWindowStore } from '../common/modelWindows';

/** Windows learned from the gateway's own errors, kept across sessions per model and base URL. */
export function learnedWindows(state: vscode.Memento): LearnedWindowStore {
  const key = 'gateway.learnedContextWindows';
  return {
    get: () => {
      const value = state.get<unknown>(key);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
      return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1])));
    },
    set: (windows) => Promise.resolve(state.update(key, windows)),
  };
}
