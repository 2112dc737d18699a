/**
 * Issue 40: the worktree sessions' commands, registered at activation; their handlers (worktreeCommands.ts)
 * are loaded at the first call: in the production build this require is rewritten to `./worktree-commands.js`.
 */
import * as vscode from 'vscode';
import type * as WorktreeCommands from './worktreeCommands';
import type { ErrorPresenter } from '../../gateway/vscode';
import type { AgentSessions } from './agentSessions';

export const WORKTREE_COMMANDS = [
  'gateway.agent.reviewWorktree',
  'gateway.agent.applyWorktree',
  'gateway.agent.openWorktree',
  'gateway.agent.discardWorktree',
  'gateway.agent.cleanUpWorktrees',
] as const;

/** The scheme of a file's content at a worktree's base commit (worktreeCommands.ts's WORKTREE_BASE_SCHEME). */
const BASE_SCHEME = 'gateway-worktree-base';

function worktreeCommands(): typeof WorktreeCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return require('./worktreeCommands') as typeof WorktreeCommands;
}

export function registerWorktreeCommands(sessions: AgentSessions, errors: ErrorPresenter): vscode.Disposable[] {
  let handlers: ReturnType<typeof WorktreeCommands.worktreeHandlers> | undefined;
  const loaded = () => (handlers ??= worktreeCommands().worktreeHandlers(sessions));
  return [
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, {
      provideTextDocumentContent: (uri, token) => loaded().provider.provideTextDocumentContent(uri, token),
    }),
    ...WORKTREE_COMMANDS.map((command) =>
      vscode.commands.registerCommand(
        command,
        errors.guard((...args: unknown[]) => loaded().commands[command](...args)),
      ),
    ),
  ];
}
