/**
 * edit_file: replaces pieces of a file's text, one or several in one call
 * (applied in order, all or none). Each old text must match one place: exactly,
 * or with the tolerances of editMatching/locate.ts, which the result names.
 */
import * as z from 'zod/mini';
import { type AgentTool, type PreparedAction, type ToolContext, displayPath, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { resolveWorkspacePath } from './pathPolicy';
import { applyChange, currentText } from './fileWrites';
import { matchEdit, occurrenceLimit, toleranceNotes } from './editMatching/locate';
import { notFoundMessage } from './editMatching/notFound';

export { excerptChars, excerptLineChars } from './editMatching/notFound';

const replacementSchema = z.object({ old_text: z.string(), new_text: z.string() });
/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.edit_file (a unit test keeps the two equal). */
export const editFileArguments = z.object({
  path: z.string().check(z.describe('The file to change.')),
  old_text: z.optional(z.string().check(z.describe('Text to replace.'))),
  new_text: z.optional(z.string().check(z.describe('Its replacement.'))),
  edits: z.optional(z.array(replacementSchema).check(z.describe('Several {old_text,new_text}, in order, all or none.'))),
});
type EditArgs = z.infer<typeof editFileArguments>;

export interface TextEdit {
  oldText: string;
  newText: string;
}

export const editFileTool: AgentTool = {
  name: 'edit_file',
  description: 'Replace text in a file. old_text must occur once (add nearby lines if not). New file or rewrite: write_file.',
  kind: 'write',
  parameters: TOOL_PARAMETERS.edit_file,
  prepare: guardedPrepare('edit_file', editFileArguments, (args) => `Edit ${displayPath(args.path)}`, prepareEdit),
};

async function prepareEdit(args: EditArgs, ctx: ToolContext, signal: AbortSignal): Promise<PreparedAction> {
  const edits = editsOf(args);
  if (typeof edits === 'string') return refused(edits);
  const checked = await resolveWorkspacePath(args.path, ctx, signal);
  if (!checked.ok) return refused(checked.reason);
  const invalid = edits.map((edit, i) => emptyEditProblem(edit) && prefixed(edits.length, i, emptyEditProblem(edit)!)).find(Boolean);
  if (invalid) return refused(invalid);
  const before = await currentText(checked.path, ctx, signal);
  if (before === undefined) return refused(`No file at "${checked.path}". To create it, use write_file.`);
  const applied = applyEdits(before, edits, checked.path);
  if (!applied.ok) return refused(applied.problem);
  // The preview is the final text: the approval diff shows exactly what will be written.
  const preview = { path: checked.path, before, after: applied.text };
  return {
    preview,
    execute: async (execSignal) => {
      const outcome = await applyChange(preview, ctx, execSignal);
      return outcome.ok && applied.notes.length > 0 ? { ...outcome, output: `${outcome.output} ${applied.notes.join(' ')}` } : outcome;
    },
  };
}

/** The edits the arguments ask for, or why they ask for none or for two things at once. */
function editsOf(args: EditArgs): TextEdit[] | string {
  const single = args.old_text !== undefined || args.new_text !== undefined;
  if (args.edits !== undefined) {
    if (single) return 'Give either old_text and new_text, or edits, not both.';
    if (args.edits.length === 0) return 'edits is empty: there is nothing to change.';
    return args.edits.map((edit) => ({ oldText: edit.old_text, newText: edit.new_text }));
  }
  if (args.old_text === undefined || args.new_text === undefined) return 'old_text and new_text are both required (or edits, a list of them).';
  return [{ oldText: args.old_text, newText: args.new_text }];
}

function emptyEditProblem(edit: TextEdit): string | undefined {
  if (edit.oldText === '') return 'old_text is empty. To create a file or replace its whole content, use write_file.';
  if (edit.oldText === edit.newText) return 'old_text and new_text are the same: there is nothing to change.';
  return undefined;
}

function prefixed(count: number, index: number, message: string): string {
  return count === 1 ? message : `Edit ${index + 1} of ${count}: ${message}${index > 0 ? ' No edit was applied.' : ''}`;
}

export type Replacement = { ok: true; text: string; notes: string[] } | { ok: false; problem: string };

/** The text with every edit applied in order, or why one of them could not be (then none is). */
export function applyEdits(text: string, edits: readonly TextEdit[], path: string): Replacement {
  let current = text;
  const notes: string[] = [];
  for (const [i, edit] of edits.entries()) {
    const replaced = replaceOnce(current, edit.oldText, edit.newText, path);
    if (!replaced.ok) return { ok: false, problem: prefixed(edits.length, i, replaced.problem) };
    current = replaced.text;
    for (const note of replaced.notes) notes.push(edits.length === 1 ? note : `Edit ${i + 1}: ${note}`);
  }
  return { ok: true, text: current, notes };
}

/** The text with the one place `oldText` matches replaced, or why there is not exactly one. */
export function replaceOnce(text: string, oldText: string, newText: string, path: string): Replacement {
  const match = matchEdit(text, oldText, newText);
  if (match.kind === 'notFound') return { ok: false, problem: notFoundMessage({ text, oldText, path, sameExceptWhitespace: match.sameExceptWhitespace }) };
  if (match.kind === 'found') {
    const reindented = match.tolerances.includes(toleranceNotes.indentation) ? "; new_text was re-indented to the file's indentation" : '';
    const notes =
      match.tolerances.length === 0 ? [] : [`old_text did not match exactly; it matched one place with ${match.tolerances.join(', ')}${reindented}.`];
    return { ok: true, text: match.text, notes };
  }
  const count = match.more ? `more than ${occurrenceLimit - 1}` : String(match.count);
  const where = `(at lines ${match.lines.join(', ')}${match.count > match.lines.length || match.more ? ', …' : ''})`;
  const advice = 'Include more of the surrounding lines in old_text so that it matches exactly one place.';
  if (match.tolerances.length === 0) return { ok: false, problem: `old_text occurs ${count} times in "${path}" ${where}. ${advice}` };
  return {
    ok: false,
    problem: `old_text does not occur exactly in "${path}", and with ${match.tolerances.join(', ')} it matches ${count} places ${where}. ${advice}`,
  };
}
