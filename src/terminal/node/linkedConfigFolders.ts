/**
 * The program configs inside a workspace folder of an editor or agent that is a link (`.vscode -> config/vscode`, a
 * monorepo's shared editor config): the walk lists the link and does not descend into it (protectedPathCache.ts), yet
 * VS Code reads `.vscode/tasks.json` through it as any program opening a file does (round 14: a linked `.vscode`'s
 * tasks were never read). Listed at each walk, not cached: where the link leads may change without its folder's stamp.
 * Its entries count against the walk's bound as the folder's own would.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isHeldConfigFile, isProgramConfigPath, isRunnerConfigName } from '../common/changeReview';

/** The configs (workspace-relative, spelled through the link) in the folder `linked` leads to, and how many entries it has. */
export async function configsBehindLink(root: string, linked: string): Promise<{ configs: string[]; entries: number }> {
  const absolute = join(root, ...linked.split('/'));
  if ((await stat(absolute).catch(() => undefined))?.isDirectory() !== true) return { configs: [], entries: 0 };
  const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
  const configs: string[] = [];
  for (const entry of entries) {
    const relative = `${linked}/${entry.name}`;
    if (isRunnerConfigName(entry.name) || isProgramConfigPath(relative) || (!entry.isDirectory() && isHeldConfigFile(relative))) configs.push(relative);
  }
  return { configs, entries: entries.length };
}
