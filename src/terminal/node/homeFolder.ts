/**
 * The user's home folder on this machine, for the sandbox decision: a workspace
 * that is it or holds it is not sandboxed (terminal/common/sandboxDecision.ts).
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { HomeFolder } from '../common/sandboxDecision';

/** `home`: the folder the sandbox empties (BubblewrapOptions.home); default the user's home folder. */
export function nodeHomeFolder(home: string = homedir()): HomeFolder {
  return { path: home || undefined, realPath: (path) => realpath(path).catch(() => undefined) };
}
