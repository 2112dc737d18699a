/**
 * The ControlPathWatcher port in VS Code: the editor's own file watcher over
 * the workspace folder, the same event source VS Code's git extension opens new
 * repositories from (a `**` watcher whose events under `/.git` it acts on half
 * a second later), so the guard hears of a planted `.git` no later than Git does.
 * What files.watcherExclude leaves out is not reported here; the walk after the
 * command still finds it. A folder renamed is reported by its new name alone (not the files it holds) and, as a
 * deletion, by its old one: `onGone` hears of the latter.
 */
import * as vscode from 'vscode';
import type { ControlPathWatcher } from '../common/commandPorts';

export const vscodeControlWatcher: ControlPathWatcher = {
  watch(root, _folders, onControlPath, onGone) {
    const base = vscode.Uri.file(root);
    const prefix = base.path.endsWith('/') ? base.path : `${base.path}/`;
    // Deletions only when asked for: what appears can be a planted path, what goes can be a covered file moved away.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '**'), false, false, onGone === undefined);
    const relative = (uri: vscode.Uri) => (uri.path.startsWith(prefix) ? uri.path.slice(prefix.length) : undefined);
    const report = (uri: vscode.Uri) => {
      const path = relative(uri);
      if (path !== undefined) onControlPath(path);
    };
    const gone = (uri: vscode.Uri) => {
      const path = relative(uri);
      if (path !== undefined) onGone?.(path);
    };
    const subscriptions = [watcher.onDidCreate(report), watcher.onDidChange(report), watcher.onDidDelete(gone), watcher];
    return { dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) };
  },
};
