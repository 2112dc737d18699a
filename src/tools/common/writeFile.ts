/** write_file: creates a file or replaces its whole content. */
import * as z from 'zod/mini';
import { type AgentTool, displayPath, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { resolveWorkspacePath } from './pathPolicy';
import { applyChange, currentText } from './fileWrites';

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.write_file (a unit test keeps the two equal). */
export const writeFileArguments = z.object({
  path: z.string().check(z.describe('The file to write.')),
  content: z.string().check(z.describe('Its complete new content.')),
});

export const writeFileTool: AgentTool = {
  name: 'write_file',
  description: 'Create a file (and its folders) or replace its whole content. For small changes prefer edit_file.',
  kind: 'write',
  parameters: TOOL_PARAMETERS.write_file,
  prepare: guardedPrepare(
    'write_file',
    writeFileArguments,
    (args) => `Write ${displayPath(args.path)}`,
    async (args, ctx, signal) => {
      const checked = await resolveWorkspacePath(args.path, ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      if (checked.path === '.') return refused('The path names the workspace folder itself; give a file path.');
      const before = await currentText(checked.path, ctx, signal);
      if (before === args.content) return refused(`"${checked.path}" already has exactly this content: there is nothing to change.`);
      const preview = { path: checked.path, before, after: args.content };
      return { preview, execute: (execSignal) => applyChange(preview, ctx, execSignal) };
    },
  ),
};
