/**
 * Shows a command exactly as it will run, wherever the user is asked about it.
 * Markdown must not reinterpret any of it (a blank line ending inline code and
 * letting a link definition swallow `; curl … | sh`), and characters that
 * display as nothing or reorder the line (bidi controls, zero-width spaces,
 * control characters) are spelled out, so what is read is what runs.
 */
import { codeFence, inlineCode as markdownInlineCode } from '../../../base/common';
import { visibleText } from '../../../base/common';
import { HOOKS_APPROVAL_TOOL } from '../../../customization/common';

/**
 * A fenced code block holding `command` whole, invisible characters spelled
 * out: the fence is longer than any backtick run in it (see markdown.ts), so no
 * line of the command can close it, and Markdown reads nothing inside (no
 * links, no definitions, no HTML).
 */
export function commandBlock(command: string, language = 'sh'): string {
  return codeFence(visibleText(command), language);
}

/** Inline code for a short single-line value (a folder, a summary), invisible characters spelled out. */
export function inlineCode(text: string): string {
  return markdownInlineCode(visibleText(text.replace(/\s*[\r\n]+\s*/g, ' ')));
}

/**
 * The approval request as Markdown for the chat: the command whole, in a block, and where it runs.
 * `folderName` is the session's workspace folder: "in `.`" says nothing, "in `my-app`" does.
 */
export function approvalMarkdown(
  request: { summary: string; command?: { line: string; cwd: string; background?: boolean; reason?: string } },
  folderName?: string,
): string {
  if (!request.command) return `**Approval needed:** ${inlineCode(request.summary)}`;
  const where = folderPath(request.command.cwd, folderName);
  const why = request.command.reason ? `\n\nIt asks because ${plainMarkdown(request.command.reason)}` : '';
  return `**Approval needed:** run this command${backgroundNote(request.command)} in ${inlineCode(where)}:\n\n${commandBlock(request.command.line)}${why}`;
}

/** Text that may quote the model's command, shown as plain text: every Markdown character escaped, nothing invisible. */
export function plainMarkdown(text: string): string {
  return visibleText(text.replace(/\s*[\r\n]+\s*/g, ' ')).replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (char) => `\\${char}`);
}

/** `cwd` (relative to the workspace folder) as the user knows it: the folder's name first. */
export function folderPath(cwd: string, folderName: string | undefined): string {
  if (!folderName) return cwd;
  const inside = cwd.replace(/^\.\/?/, '').replace(/\/+$/, '');
  return inside ? `${folderName}/${inside}` : folderName;
}

/**
 * Where a waiting command runs, as a notification or a progress line says it: " (in `my-app/src`)", the background
 * too. Nothing for an approval of hooks: each hook's own folder is in its lines ("in ." said nothing there).
 */
export function commandPlace(request: { toolName: string; command?: { cwd: string; background?: boolean } }, folderName: string | undefined): string {
  if (!request.command || request.toolName === HOOKS_APPROVAL_TOOL) return '';
  return ` (${request.command.background ? 'in the background, ' : ''}in ${visibleText(folderPath(request.command.cwd, folderName))})`;
}

/** Said wherever a command is shown for approval: one started in the background keeps running after the call returns. */
export function backgroundNote(command: { background?: boolean }): string {
  return command.background ? ' in the background (it keeps running until stopped, at the latest when the run ends)' : '';
}

/** What fits in a notification (VS Code cuts messages near 1,000 characters). */
export const NOTIFICATION_COMMAND_CHARS = 800;

/**
 * The command for a plain-text notification: whole when it is one short line,
 * else its start with how much is left out; `complete` says whether the user
 * saw all of it (if not, offer "Show Full Command").
 */
export function notificationCommand(command: string): { text: string; complete: boolean } {
  const visible = visibleText(command);
  const lines = visible.split('\n');
  if (lines.length === 1 && visible.length <= NOTIFICATION_COMMAND_CHARS) return { text: visible, complete: true };
  const shown = lines.join(' ⏎ ').slice(0, NOTIFICATION_COMMAND_CHARS);
  const more = lines.length > 1 ? `${lines.length} lines, ${visible.length} characters` : `${visible.length} characters`;
  return { text: `${shown} … (${more}: use Show Full Command to read it all)`, complete: false };
}
