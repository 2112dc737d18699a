/** The one place where VS Code's CancellationToken becomes the core's AbortSignal. */
import type * as vscode from 'vscode';

export function toAbortSignal(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
