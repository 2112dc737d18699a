/**
 * Composition root: builds the objects and registers them with VS Code, nothing else.
 * The commands, chat participant and status bar are wired here as they land.
 */
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Nothing is registered yet: the extension's features are added by the following work items.
}

export function deactivate(): void {}
