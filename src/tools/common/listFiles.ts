/** list_files: the files under a folder, as a bounded tree-ordered list of paths. */
import * as z from 'zod/mini';
import { type AgentTool, type ToolContext, ToolFailure, displayPath, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { resolveWorkspacePath } from './pathPolicy';
import { compileGlob } from '../../base/common';
import { walkTimeLimitMs, walkWorkspace } from './walk';
import { PathVerdicts, engineFiles, nameGlobOf } from './searchPathChecks';
import { treeEntries } from './treeOrder';
import { systemClock } from '../../base/common';

/** Paths shown per call; the rest is counted in a "… N more" line. */
export const listLimit = 500;

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.list_files (a unit test keeps the two equal). */
export const listFilesArguments = z.object({
  folder: z.optional(z.string().check(z.describe('Folder to list (default ".", the root).'))),
  glob: z.optional(z.string().check(z.describe('Only files matching this glob, e.g. "**/*.ts"; with no "/", names at any depth.'))),
});

export const listFilesTool: AgentTool = {
  name: 'list_files',
  description: `List files and folders (ending in "/") recursively, without ignored and protected files; at most ${listLimit} paths.`,
  kind: 'read',
  parameters: TOOL_PARAMETERS.list_files,
  prepare: guardedPrepare(
    'list_files',
    listFilesArguments,
    (args) => {
      const where = displayPath(args.folder ?? '.');
      return `List ${where === '.' ? 'the workspace' : where}${args.glob ? ` (${args.glob})` : ''}`;
    },
    async (args, ctx, signal) => {
      const checked = await resolveWorkspacePath(args.folder ?? '.', ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      const glob = args.glob === undefined ? undefined : compileGlob(args.glob);
      if (glob?.ok === false) return refused(`Unsupported glob "${args.glob}": ${glob.reason}.`);
      const inGlob = glob?.matches;
      return { execute: async (execSignal) => ({ ok: true, output: await listFolder(checked.path, args.glob, inGlob, ctx, execSignal) }) };
    },
  ),
};

async function listFolder(
  folder: string,
  glob: string | undefined,
  inGlob: ((path: string) => boolean) | undefined,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<string> {
  const stat = await ctx.files.stat(folder, signal);
  if (!stat) throw new ToolFailure(`No folder at "${folder}".`);
  if (stat.type !== 'directory') throw new ToolFailure(`"${folder}" is a file, not a folder. Use read_file to read it.`);
  // Asking for an ignored folder by name (node_modules/x) means the user wants to see it.
  const respectIgnore = folder === '.' || !(await ctx.files.isIgnored(folder, signal));
  const clock = ctx.clock ?? systemClock;
  const started = clock.now();
  let listed: Listing | undefined;
  // A folder reached through a symlink is walked: the engine does not follow links.
  if (ctx.search && (await ctx.files.realPathInside(folder, signal)) === folder) {
    try {
      listed = await listWithEngine(folder, respectIgnore, glob, inGlob, ctx, signal);
      ctx.logger.info(`list_files served by ${ctx.search.name} in ${Math.round(clock.now() - started)} ms`);
    } catch (error) {
      if (signal.aborted) throw error;
      ctx.logger.warn(`list_files: ${ctx.search.name} failed, listing with the JavaScript walker instead: ${String(error)}`);
    }
  }
  if (!listed) {
    listed = await listWithWalk(folder, respectIgnore, inGlob, ctx, signal);
    ctx.logger.info(`list_files served by the JavaScript walker in ${Math.round(clock.now() - started)} ms`);
  }
  const { shown, more, stopped } = listed;
  if (shown.length === 0) {
    return glob === undefined ? `"${folder}" is empty (or holds only ignored and protected files).` : `No files under "${folder}" match "${glob}".`;
  }
  const notes: string[] = [];
  if (more > 0 || stopped) notes.push(`… ${stopped ? 'at least ' : ''}${more} more; list a subfolder or use a glob to narrow it down`);
  if (!respectIgnore) notes.push(`("${folder}" is ignored by the workspace's rules; listed because it was asked for by name)`);
  return [...shown, ...notes].join('\n');
}

/** The first `listLimit` entries in tree order, how many more there are, and whether the count stopped early. */
interface Listing {
  shown: string[];
  more: number;
  stopped: boolean;
}

/**
 * A folder is listed when it holds a file that is listed (as ripgrep, which
 * lists files only, sees it): one of only ignored or protected files, or an
 * empty one, is not.
 */
async function listWithWalk(
  folder: string,
  respectIgnore: boolean,
  inGlob: ((path: string) => boolean) | undefined,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<Listing> {
  const entries: string[] = [];
  const holdFiles = new Set<string>();
  let stopped = false;
  const timeLimit = { clock: ctx.clock ?? systemClock, ms: walkTimeLimitMs };
  const walk = walkWorkspace(folder, ctx, signal, { respectIgnore, timeLimit, onLimit: () => (stopped = true) });
  for await (const entry of walk) {
    const relative = folder === '.' ? entry.path : entry.path.slice(folder.length + 1);
    if (inGlob !== undefined && (entry.type !== 'file' || !inGlob(relative))) continue;
    if (entry.type === 'directory') {
      entries.push(`${entry.path}/`);
      continue;
    }
    entries.push(entry.path);
    for (let slash = entry.path.lastIndexOf('/'); slash > 0 && !holdFiles.has(entry.path.slice(0, slash)); slash = entry.path.lastIndexOf('/', slash - 1)) {
      holdFiles.add(entry.path.slice(0, slash));
    }
  }
  const listed = entries.filter((entry) => !entry.endsWith('/') || holdFiles.has(entry.slice(0, -1)));
  return { shown: listed.slice(0, listLimit), more: Math.max(0, listed.length - listLimit), stopped };
}

/** With a glob only files are listed; without one, the folders that hold them too. */
async function listWithEngine(
  folder: string,
  respectIgnore: boolean,
  glob: string | undefined,
  inGlob: ((path: string) => boolean) | undefined,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<Listing> {
  // Asked for by name, an ignored folder is listed whole, as the walk does: the host's excludes are ignore rules too.
  const excludedGlobs = respectIgnore ? (ctx.files.excludedGlobs?.() ?? []) : [];
  const verdicts = new PathVerdicts(folder, ctx.protectedFiles, excludedGlobs, inGlob);
  const query = { folder, respectIgnore, protectedGlobs: ctx.protectedFiles, excludedGlobs, nameGlob: nameGlobOf(glob) };
  const { files, stopped } = await engineFiles(ctx.search!, query, verdicts, signal);
  // With a glob only files are listed, as the walk does.
  const { shown, total } = treeEntries(folder, files, listLimit, glob === undefined);
  return { shown, more: total - shown.length, stopped: stopped !== undefined };
}
