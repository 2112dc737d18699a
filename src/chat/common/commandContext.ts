/**
 * Decides what a chat request sends as context, and whether it is worth sending
 * at all: every request is paid for, so /explain and /fix with no code to work on
 * are answered locally instead. Kept free of `vscode` so it can be tested
 * (context.ts maps VS Code's references to `ReferenceContent`).
 */
import type { Attachment, SlashCommand } from './prompt';
import { protectingPattern } from '../../base/common';

/** The active editor's code, and its path (workspace-relative, or absolute outside the workspace). */
export interface ActiveCode {
  path: string;
  attachment: Attachment;
}

/** One reference the user attached, once read: text to send, or why it cannot be sent. */
export type ReferenceContent = { kind: 'text'; attachment: Attachment } | { kind: 'unusable'; name: string; reason: string };

export type RequestContext =
  /** Send the request with these attachments; `notes` tell the user what was left out. */
  | { kind: 'send'; attachments: Attachment[]; notes: string[] }
  /** Send nothing: `notes` and `hint` are the whole answer. */
  | { kind: 'nothing'; notes: string[]; hint: string };

export const NO_CODE_HINT = 'Select code in an editor, or attach a file with #, then ask again.';

export const TEXT_ONLY_REASON = 'only text files can be attached';

/**
 * The context for a request. `activeCode` (the editor's selection or file) is read only for
 * /explain and /fix with no reference at all: when the user attached something that cannot
 * be sent, answering about the active file instead would answer a question they did not ask.
 * An active file matching `protectedFiles` (`.env`, a key) is never sent without being asked
 * for by name: the user may only have had it open.
 */
export function requestContext(
  references: readonly ReferenceContent[],
  command: SlashCommand,
  activeCode: () => ActiveCode | undefined,
  protectedFiles: readonly string[] = [],
): RequestContext {
  const attachments = references.flatMap((reference) => (reference.kind === 'text' ? [reference.attachment] : []));
  const notes = references.flatMap((reference) => (reference.kind === 'unusable' ? [`\`${reference.name}\` was not sent: ${reference.reason}.`] : []));
  if (!command || attachments.length > 0) return { kind: 'send', attachments, notes };
  const active = references.length === 0 ? activeCode() : undefined;
  if (!active) return { kind: 'nothing', notes, hint: NO_CODE_HINT };
  // Outside the workspace the path is absolute; its segments are matched all the same (`~/.ssh/id_rsa`).
  const protectedBy = protectingPattern(active.path.replace(/\\/g, '/').replace(/^([A-Za-z]:)?\/+/, ''), protectedFiles);
  if (protectedBy === undefined) return { kind: 'send', attachments: [active.attachment], notes };
  const refusal = `\`${active.path}\` was not sent: it is a protected file (it matches \`${protectedBy}\` in \`gateway.agent.protectedFiles\`).`;
  return { kind: 'nothing', notes: [...notes, refusal], hint: 'Select code in another editor, or attach the part you want to send with #, then ask again.' };
}
