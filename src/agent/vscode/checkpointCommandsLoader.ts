/**
 * Review and rewind's commands, registered at activation; their handlers (checkpointCommands.ts) are loaded at
 * the first call: in the production build this require is rewritten to `./checkpoint-commands.js`.
 */
import * as vscode from 'vscode';
import type * as CheckpointCommands from './checkpointCommands';
import type { ErrorPresenter } from '../../gateway/vscode';
import { UndoRestoreOffer } from '../../checkpoints/vscode';
import type { AgentSessions } from './agentSessions';
import { CHECKPOINT_SCHEME } from './checkpointNode';

export const CHECKPOINT_COMMANDS = [
  'gateway.agent.reviewChanges',
  'gateway.agent.reviewStep',
  'gateway.agent.restoreCheckpoint',
  'gateway.agent.undoRestore',
] as const;
export type CheckpointCommand = (typeof CHECKPOINT_COMMANDS)[number];

function checkpointCommands(): typeof CheckpointCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return require('./checkpointCommands') as typeof CheckpointCommands;
}

export function registerCheckpointCommands(sessions: AgentSessions, errors: ErrorPresenter, offer = new UndoRestoreOffer()): vscode.Disposable[] {
  let handlers: ReturnType<typeof CheckpointCommands.checkpointHandlers> | undefined;
  const loaded = () => (handlers ??= checkpointCommands().checkpointHandlers(sessions, offer));
  return [
    offer,
    vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      provideTextDocumentContent: (uri) => loaded().provider.provideTextDocumentContent(uri),
    }),
    ...CHECKPOINT_COMMANDS.map((command) =>
      vscode.commands.registerCommand(
        command,
        errors.guard((...args: unknown[]) => loaded().commands[command](...args)),
      ),
    ),
  ];
}
