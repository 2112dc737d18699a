/**
 * The configs the review reads outside the workspace: those of every folder above it (a monorepo opened at one
 * package: its top's `.vscode/tasks.json`, `.claude/settings.json`, direnv's nearest `.envrc`, a `*.code-workspace`
 * beside the workspace) and those at the top of the window's other folders (a multi-root window whose
 * `a/.vscode/tasks.json` runs `../b/scripts/x.sh`). Each is judged by what it is, with the same predicate as the
 * workspace's walk (isReviewedConfig), and read from the folder it was found in, as a config inside is read from
 * the workspace's top (runnerConfigs.ts). Only a folder's own entries and its editors' and agents' folders are
 * listed, never a walk: this runs at every command.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isEditorOrAgentPath, isReviewedConfig, otherRepositoryConfigIn } from '../common/changeReview';

/** A config outside the workspace: its path from the workspace's top, and the folder it was found in (absolute). */
export interface OutsideConfig {
  path: string;
  top: string;
}

/** Folders above the workspace looked at: as far as the filesystem's root, bounded against a pathological depth. */
const LEVELS = 64;
/** Folders whose own folders hold configs (`.github/hooks`, `.clinerules/hooks`, `.config/mise`, `.devcontainer/x`). */
const HOLDERS = new Set(['.github', '.clinerules', '.cline', '.config', '.devcontainer']);

/** The configs of the folders above `root` and of the window's other folders (`windowFolders`, absolute). */
export async function configsAround(root: string, windowFolders: readonly string[], signal: AbortSignal): Promise<OutsideConfig[]> {
  const tops = new Set<string>();
  for (let folder = root, level = 0; level < LEVELS; level++) {
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
    tops.add(folder);
  }
  // A window folder inside the workspace is the walk's (protectedPathCache.ts); one holding it is among those above.
  for (const folder of windowFolders) if (!isAtOrBelow(folder, root) && !isAtOrBelow(root, folder)) tops.add(folder);
  const found: OutsideConfig[] = [];
  for (const top of tops) {
    signal.throwIfAborted();
    for (const config of await configsAt(top, '', signal)) found.push({ path: relative(root, join(top, config)), top });
  }
  return found;
}

/**
 * The configs in `folder` of `top` (`/`-separated, '' the top): its reviewed entries, and those of its editors' and
 * agents' folders, one level down (two under a holder). A folder that cannot be listed holds nothing read, as
 * before for the folders above (the sandbox's look refuses an unreadable workspace, not an unreadable parent).
 */
async function configsAt(top: string, folder: string, signal: AbortSignal): Promise<string[]> {
  const depth = folder === '' ? 0 : folder.split('/').length;
  const entries = await readdir(join(top, folder), { withFileTypes: true }).catch(() => [] as Dirent[]);
  const found: string[] = [];
  for (const entry of entries) {
    signal.throwIfAborted();
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    const lower = path.toLowerCase();
    const descend =
      depth === 0
        ? isEditorOrAgentPath(lower) || HOLDERS.has(lower)
        : depth === 1 && HOLDERS.has(lower.slice(0, lower.indexOf('/'))) && isEditorOrAgentPath(lower);
    // A linked folder (`.vscode -> ../shared/vscode`) is read where it leads, as the programs read it; a stat only
    // for a name that matters (a home folder holds many links).
    const directory = entry.isDirectory() || (entry.isSymbolicLink() && (descend || isReviewedConfig(path, false)) && (await isFolder(join(top, path))));
    if (isReviewedConfig(path, directory)) found.push(path);
    // Mercurial's and Sapling's repository configs, read from the repository's top (runnerConfigs.ts).
    const otherConfig = depth === 0 ? otherRepositoryConfigIn(entry.name) : undefined;
    if (otherConfig !== undefined) found.push(otherConfig);
    if (directory && descend) found.push(...(await configsAt(top, path, signal)));
  }
  return found;
}

function isAtOrBelow(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return inside === '' || (!inside.startsWith('..') && !inside.startsWith('/'));
}

function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
