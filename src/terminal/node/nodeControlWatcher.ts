/**
 * The ControlPathWatcher port with Node's own watcher (inotify on Linux): one
 * non-recursive watch per folder, because a control path is always a new entry
 * in some folder. A new folder is watched as soon as its event arrives and then
 * looked through, so a tree made in one go (`mkdir -p a/b && git init a/b`) is
 * seen too. Node's recursive mode is not used: on Linux it polls every file.
 * Bounded: past `maxFolders` folders the rest are not watched (the walk after
 * the command still finds what they hold). In VS Code the editor's own watcher
 * is used instead (src/terminal/vscode/vscodeControlWatcher.ts).
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { controlPathOf, isControlName } from '../common/controlPaths';
import type { ControlPathWatcher } from '../common/commandPorts';

export class NodeControlWatcher implements ControlPathWatcher {
  constructor(private readonly maxFolders = 20_000) {}

  watch(root: string, folders: readonly string[], onControlPath: (path: string) => void): { dispose(): void } {
    const watchers = new Map<string, FSWatcher>();
    let closed = false;
    const add = (folder: string): boolean => {
      if (closed || watchers.has(folder) || watchers.size >= this.maxFolders) return false;
      try {
        const watcher = watch(join(root, ...folder.split('/')), { persistent: false }, (_event, name) => {
          if (!closed && name) onEntry(folder, name.toString());
        });
        watcher.on('error', () => watcher.close());
        watchers.set(folder, watcher);
        return true;
      } catch {
        return false; // Gone already, or out of watches: the walk after the command covers it.
      }
    };
    const onEntry = (folder: string, name: string) => {
      const path = folder === '.' ? name : `${folder}/${name}`;
      const control = controlPathOf(path);
      if (control !== undefined) onControlPath(control);
      else void explore(path);
    };
    /** A new entry that may be a folder: watched, then its entries looked at (they may have come before the watch). */
    const explore = async (folder: string, known = false) => {
      if (!known && !(await lstat(join(root, ...folder.split('/'))).catch(() => undefined))?.isDirectory()) return;
      if (!add(folder)) return;
      const entries = await readdir(join(root, ...folder.split('/')), { withFileTypes: true }).catch(() => []);
      const parentName = folder.slice(folder.lastIndexOf('/') + 1);
      for (const entry of entries) {
        if (closed) return;
        if (isControlName(entry.name, parentName)) onControlPath(`${folder}/${entry.name}`);
        else if (entry.isDirectory()) await explore(`${folder}/${entry.name}`, true);
      }
    };
    for (const folder of folders) add(folder);
    return {
      dispose: () => {
        closed = true;
        for (const watcher of watchers.values()) watcher.close();
        watchers.clear();
      },
    };
  }
}
