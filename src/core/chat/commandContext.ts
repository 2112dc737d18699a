/**
 * Decides what a chat request sends as context, and whether it is worth sending
 * at all: every request is paid for, so /explain and /fix with no code to work on
 * are answered locally instead. Kept free of `vscode` so it can be tested
 * (context.ts maps VS Code's references to `ReferenceContent`).
 */
import type { Attachment, SlashCommand } from './prompt';

/** One reference the user attached, once read: text to send, or why it cannot be sent. */
export type ReferenceContent =
  | { kind: 'text'; attachment: Attachment }
  | { kind: 'unusable'; name: string; reason: string };

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
 */
export function requestContext(references: readonly ReferenceContent[], command: SlashCommand, activeCode: () => Attachment | undefined): RequestContext {
  const attachments = references.flatMap((reference) => (reference.kind === 'text' ? [reference.attachment] : []));
  const notes = references.flatMap((reference) => (reference.kind === 'unusable' ? [`\`${reference.name}\` was not sent: ${reference.reason}.`] : []));
  if (!command || attachments.length > 0) return { kind: 'send', attachments, notes };
  const active = references.length === 0 ? activeCode() : undefined;
  if (active) return { kind: 'send', attachments: [active], notes };
  return { kind: 'nothing', notes, hint: NO_CODE_HINT };
}
