/** Folder handles of the anchored operations (anchoredPaths.ts), and the check of an opened file where there is no /proc. */
import { realpath, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ChangedWhileOpenedError, type AnchoredAction } from './anchoredRefusals';

/** A folder of the workspace, opened and checked; its entries are reached through it. */
export interface VerifiedFolder {
  /** Its real absolute path when it was checked. */
  readonly real: string;
  /** The workspace root's real path it was checked against. */
  readonly realRoot: string;
  /** How to reach the folder itself: `/proc/self/fd/N` (pinned), or its real path without /proc. */
  readonly self: string;
  /** How to reach entry `name` of this very folder. */
  entry(name: string): string;
  close(): Promise<void>;
}

/** Without /proc: the file opened is the one its checked real path holds now (same device and inode), or the open was redirected. */
export async function sameFileAs(handle: FileHandle, real: string, requested: string, action: AnchoredAction): Promise<string> {
  const [opened, named] = await Promise.all([handle.stat({ bigint: true }), stat(real, { bigint: true }).catch(() => undefined)]);
  if (named === undefined || opened.dev !== named.dev || opened.ino !== named.ino) {
    throw new ChangedWhileOpenedError(requested, action, 'the file opened is not the one checked');
  }
  return realpath(real);
}

export function handleFolder(handle: FileHandle, real: string, realRoot: string): VerifiedFolder {
  const self = `/proc/self/fd/${handle.fd}`;
  return { real, realRoot, self, entry: (name) => `${self}/${name}`, close: () => handle.close() };
}

export function pathFolder(real: string, realRoot: string): VerifiedFolder {
  return { real, realRoot, self: real, entry: (name) => join(real, name), close: () => Promise.resolve() };
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
