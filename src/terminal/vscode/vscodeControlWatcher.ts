/**
 * The ControlPathWatcher port in VS Code: the editor's own file watcher over
 * the workspace folder, the same event source VS Code's git extension opens new
 * repositories from (a `**` watcher whose events under `/.git` it acts on half
 * a second later), so the guard hears of a planted `.git` no later than Git does.
 * What files.watcherExclude leaves out is not reported here; the walk after the
 * command still finds it.
 */
import * as vscode from 'vscode';
import type { ControlPathWatcher } from '../common/commandPorts';

export const vscodeControlWatcher: ControlPathWatcher = {
  watch(root, _folders, onControlPath) {
    const base = vscode.Uri.file(root);
    const prefix = base.path.endsWith('/') ? base.path : `${base.path}/`;
    // Deletions are not needed: only what appears can be a planted path.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '**'), false, false, true);
    const report = (uri: vscode.Uri) => {
      if (!uri.path.startsWith(prefix)) return;
      onControlPath(uri.path.slice(prefix.length));
    };
    const subscriptions = [watcher.onDidCreate(report), watcher.onDidChange(report), watcher];
    return { dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) };
  },
};
