/**
 * The agent sessions' LocalMachine on this machine's disk: the Node file ports,
 * child processes, bubblewrap, the control-file guard, and the checkpoint
 * folders in the extension's storage (never in the workspace).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../base/common';
import { NodeCheckpointFolder, NodeWorkspaceRestore, NodeCheckpointShelf } from '../../checkpoints/node';
import { type BubblewrapSandbox, changeReviewParts, NodeCommandRunner, nodeHomeFolder, plainTerminalText } from '../../terminal/node';
import { NodeFileChanges, NodeWorkspaceFiles, RipgrepSearch } from '../../tools/node';
import type { LocalMachine } from '../common/sessions/localMachine';
import { NodeHookFiles } from '../../customization/node';
import { hookProcess } from '../../customization/node';
import { lazyGitWorktrees } from './gitWorktreesLoader';

export interface NodeLocalMachineOptions {
  /** The folder of every session's checkpoint folder (the extension's storage for this workspace). */
  checkpointRoot: string;
  /** VS Code's ripgrep, when one was found (looked up at the first search, not while the extension activates). */
  ripgrep: () => string | undefined;
  sandbox: BubblewrapSandbox;
  /** The user's home folder, the one `sandbox` empties (pass both the same); default `os.homedir()`. */
  home?: string;
  /** `gateway.agent.protectedFiles` now: every file port checks what it opens against it. */
  protectedFiles: () => readonly string[];
  /** The total bound of the checkpoints, in bytes (the user's setting). */
  checkpointStorageBytes: () => number;
  logger: Logger;
}

export function nodeLocalMachine(options: NodeLocalMachineOptions): LocalMachine {
  const { checkpointRoot, ripgrep, protectedFiles, logger } = options;
  const home = nodeHomeFolder(options.home);
  return {
    files: (rootPath) => new NodeWorkspaceFiles(rootPath, { protectedFiles }),
    search: (rootPath) => {
      const binary = ripgrep();
      return binary ? new RipgrepSearch(binary, rootPath) : undefined;
    },
    runChildProcess: ({ rootPath, command, cwd, timeoutMs, signal, onOutput, sandbox: launch }) =>
      new NodeCommandRunner(rootPath, { onOutput, sandbox: launch && { launch: () => Promise.resolve(launch) } }).run(command, cwd, timeoutMs, signal),
    startChildProcess: ({ rootPath, sandbox: launch, ...request }) =>
      new NodeCommandRunner(rootPath, { sandbox: launch && { launch: () => Promise.resolve(launch) } }).start(request),
    sandbox: options.sandbox,
    home,
    platform: process.platform,
    hookHost: (rootPath, sandboxFor) => hookProcess().nodeHookHost({ root: rootPath, sandboxFor }),
    hookFiles: (rootPath) => new NodeHookFiles({ root: rootPath, home: homeFolder(options.home), protectedFiles }),
    homeFiles: () => {
      const folder = homeFolder(options.home);
      return folder === undefined ? undefined : new NodeWorkspaceFiles(folder, { protectedFiles });
    },
    // Kept in the session's checkpoint folder (outside the workspace), so it goes when the session is deleted.
    controlGuard: (rootPath, sessionId, hooks) => {
      const quarantineFolder = join(sessionFolder(checkpointRoot, sessionId), 'changes');
      return new (changeReviewParts().NodeControlGuard)({
        root: rootPath,
        quarantineFolder,
        layers: options.sandbox.layersFor(sessionId),
        protectedFiles,
        ...hooks,
        logger,
      });
    },
    fileChanges: (rootPath) => new NodeFileChanges(rootPath, { protectedFiles }),
    plainTerminalText,
    // Outside the workspace: the extension's storage for this workspace, one folder per session.
    checkpointFolder: (sessionId) => new NodeCheckpointFolder(sessionFolder(checkpointRoot, sessionId)),
    workspaceRestore: (rootPath) => new NodeWorkspaceRestore(rootPath, { protectedFiles }),
    checkpointShelf: new NodeCheckpointShelf(checkpointRoot),
    checkpointStorageBytes: options.checkpointStorageBytes,
    worktrees: lazyGitWorktrees({ home: options.home, protectedFiles }),
  };
}

/** The user's home folder; undefined for `/` (a service user's), whose "skills" or hook scripts would be anything on the disk. */
function homeFolder(given: string | undefined): string | undefined {
  const home = given ?? homedir();
  return home && home !== '/' ? home : undefined;
}

/** A session's folder under the checkpoint root; an id that could name another place is refused. */
function sessionFolder(checkpointRoot: string, sessionId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`Invalid session id ${sessionId}`);
  return join(checkpointRoot, sessionId);
}
