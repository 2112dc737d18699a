/** What edit_file and write_file share: reading the current content and applying an approved change safely. */
import { type FilePreview, type ToolContext, type ToolOutcome, ToolFailure } from './tool';
import { hardLinkRefusal, resolveWorkspacePath } from './pathPolicy';
import { looksBinary, plural } from '../../base/common';

/** The file's current text, or undefined when there is no file yet. */
export async function currentText(path: string, ctx: ToolContext, signal: AbortSignal): Promise<string | undefined> {
  const stat = await ctx.files.stat(path, signal);
  if (!stat) return undefined;
  if (stat.type === 'directory') throw new ToolFailure(`"${path}" is a folder, not a file.`);
  if ((stat.links ?? 1) > 1) throw new ToolFailure(hardLinkRefusal(path, stat.links ?? 1));
  const text = await ctx.files.readText(path, signal);
  if (looksBinary(text)) throw new ToolFailure(`"${path}" is a binary file; the agent only changes text files.`);
  // Bytes that are not UTF-8 were read as U+FFFD; writing the text back would destroy them.
  if (text.includes('\uFFFD')) throw new ToolFailure(`"${path}" is not valid UTF-8 text; the agent only changes UTF-8 files.`);
  return text;
}

/**
 * Writes an approved change. The path is checked again and the file read
 * again first: the user may take minutes to approve, and in that time a
 * symlink can appear or the file can change, and a stale preview must not
 * overwrite someone's newer work.
 */
export async function applyChange(change: FilePreview, ctx: ToolContext, signal: AbortSignal): Promise<ToolOutcome> {
  const checked = await resolveWorkspacePath(change.path, ctx, signal);
  if (!checked.ok) return { ok: false, output: checked.reason };
  const now = await currentText(change.path, ctx, signal);
  if (now !== change.before) {
    const what = change.before === undefined ? 'was created' : now === undefined ? 'was deleted' : 'changed';
    return { ok: false, output: `"${change.path}" ${what} after this change was proposed, so it was not applied. Read the file again and redo the change.` };
  }
  // Where the check found the file: the host writes there or nowhere (a link re-pointed since is refused).
  const realPath = await ctx.files.realPathInside(change.path, signal);
  if (realPath === undefined) return { ok: false, output: `Refused: "${change.path}" leads outside the workspace through a symbolic link.` };
  await ctx.changes.write(change.path, change.after, signal, { realPath });
  const lines = change.after === '' ? 0 : change.after.split('\n').length - (change.after.endsWith('\n') ? 1 : 0);
  const verb = change.before === undefined ? 'Created' : 'Wrote';
  return { ok: true, output: `${verb} ${change.path} (${plural(lines, 'line')}).`, changedPath: change.path };
}
