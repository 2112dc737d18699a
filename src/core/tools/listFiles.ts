/** list_files: the files under a folder, as a bounded tree-ordered list of paths. */
import * as z from 'zod/mini';
import type { AgentTool, ToolContext } from './tool';
import { ToolFailure, displayPath, guardedPrepare, parametersOf, refused } from './tool';
import { resolveWorkspacePath } from './pathPolicy';
import { compileGlob } from './glob';
import { walkWorkspace } from './walk';

/** Paths shown per call; the rest is counted in a "… N more" line. */
export const listLimit = 500;

const schema = z.object({
  folder: z.optional(z.string().check(z.describe('Folder to list (default ".", the root).'))),
  glob: z.optional(z.string().check(z.describe('Only files matching this glob, e.g. "**/*.ts"; without "/" it matches names at any depth.'))),
});

export const listFilesTool: AgentTool = {
  name: 'list_files',
  description:
    'List files and folders under a folder, recursively (folders end with "/"), ' + `without .gitignored and protected files; at most ${listLimit} paths.`,
  kind: 'read',
  parameters: parametersOf(schema),
  prepare: guardedPrepare(
    'list_files',
    schema,
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
  const shown: string[] = [];
  let more = 0;
  let limitReached = false;
  const walk = walkWorkspace(folder, ctx, signal, { respectIgnore, onLimit: () => (limitReached = true) });
  for await (const entry of walk) {
    const relative = folder === '.' ? entry.path : entry.path.slice(folder.length + 1);
    if (inGlob !== undefined && (entry.type !== 'file' || !inGlob(relative))) continue;
    if (shown.length < listLimit) shown.push(entry.type === 'directory' ? `${entry.path}/` : entry.path);
    else more++;
  }
  if (shown.length === 0) {
    return glob === undefined ? `"${folder}" is empty (or holds only ignored and protected files).` : `No files under "${folder}" match "${glob}".`;
  }
  const notes: string[] = [];
  if (more > 0 || limitReached) notes.push(`… ${limitReached ? 'at least ' : ''}${more} more; list a subfolder or use a glob to narrow it down`);
  if (!respectIgnore) notes.push(`("${folder}" is ignored by the workspace's rules; listed because it was asked for by name)`);
  return [...shown, ...notes].join('\n');
}
