/** What restoring a checkpoint would do, worked out without changing anything in the workspace. */
import type { WorkspaceFiles } from '../../base/common';
import type { CheckpointFolder } from './checkpointPorts';
import { resolveWorkspacePath } from '../../tools/common';
import type { AgentSessionState } from '../../sessionModel/common';
import type { Index, Manifest } from './checkpointIndex';
import { versionOnDisk } from './checkpointCapture';
import { CheckpointUnavailable, type RestoreFile, type RestorePlan } from './checkpointTypes';

export interface PlanWorkspace {
  files: WorkspaceFiles;
  protectedFiles: readonly string[];
  isUnsaved?: (path: string) => boolean;
}

/** The plan of restoring checkpoint `id` of `index` (its baseline already grown from `state`). */
export async function planRestoreOf(
  folder: CheckpointFolder,
  at: { index: Index; state: AgentSessionState; id: number },
  workspace: PlanWorkspace,
  signal: AbortSignal,
): Promise<RestorePlan> {
  const { index, state, id } = at;
  const target = index.checkpoints.find((c) => c.id === id);
  if (!target) throw new CheckpointUnavailable('That checkpoint is no longer kept (dropped to stay under the size bound, or removed); nothing was changed.');
  const paths = [...new Set([...index.baseline.keys(), ...index.head.files.keys(), ...target.files.keys()])].sort();
  const present: Manifest = new Map();
  const planned: RestoreFile[] = [];
  for (const path of paths) {
    await checkPath(path, workspace, signal);
    const current = await versionOnDisk(folder, path, workspace.files, signal);
    present.set(path, current);
    const want = target.files.get(path) ?? index.baseline.get(path);
    if (want === undefined || want === current) continue;
    const known = index.head.files.get(path) ?? index.baseline.get(path);
    const unsaved = workspace.isUnsaved?.(path) ?? false;
    planned.push({ path, want, current, changedByUser: current !== known || unsaved, unsaved });
  }
  const commandsAfter = state.commandsRun.slice(target.conversation.commandsRun);
  return { target, files: planned, conflicts: planned.filter((f) => f.changedByUser), commandsAfter, present };
}

/** The paths come from a folder on disk: each passes the tools' own check (inside the workspace, not protected) before it is read or written. */
async function checkPath(path: string, workspace: { files: WorkspaceFiles; protectedFiles: readonly string[] }, signal: AbortSignal): Promise<void> {
  const checked = await resolveWorkspacePath(path, workspace, signal);
  if (!checked.ok) throw new CheckpointUnavailable(`Restore refused, nothing was changed: the checkpoints list ${JSON.stringify(path)}. ${checked.reason}`);
  if (checked.path !== path)
    throw new CheckpointUnavailable(`Restore refused, nothing was changed: the checkpoints list ${JSON.stringify(path)}, not a plain workspace path.`);
}
