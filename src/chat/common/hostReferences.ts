/**
 * What VS Code attaches to a chat request by itself, and what of it a `@gateway` question forwards. VS Code (1.139 and
 * later) adds, for every participant, its automatic instructions references (AGENTS.md, copilot-instructions.md, the
 * instructions files whose applyTo matches) and a "Chat customizations index" written for Copilot: the skills,
 * instructions and agents with Copilot's tool names (`#tool:readFile`, `#tool:runSubagent`,
 * `#tool:execute/runInTerminal`), tools this chat does not have. The index is never forwarded; an instructions
 * reference is dropped when the project's instructions this extension sends (its system message) hold that file
 * already, so each file reaches the model once. A file the user attached by hand is always forwarded.
 * The ids are those of VS Code's chatVariableEntries (`PromptTextVariableKind`, `PromptFileVariableKind`).
 */
import type { Attachment } from './prompt';

/** `toPromptTextVariableEntry`'s id: the customizations index. */
export const CUSTOMIZATIONS_INDEX_ID = 'vscode.customizations.index';
/** The ids' prefixes of automatic instructions references (older VS Code, then 1.139 on), and their model description. */
const INSTRUCTIONS_ID_PREFIXES: readonly string[] = ['vscode.prompt.instructions', 'vscode.instructions.file'];
const INSTRUCTIONS_DESCRIPTION = 'Prompt instructions file';

export interface HostReference {
  id: string;
  modelDescription?: string;
}

/** The references a question forwards: all but VS Code's customizations index. */
export function forwardedReferences<T extends HostReference>(references: readonly T[]): T[] {
  return references.filter((reference) => reference.id !== CUSTOMIZATIONS_INDEX_ID);
}

/** Whether VS Code added the reference as an instructions file (not the user, with # or a drop). */
export function isInstructionsReference(reference: HostReference): boolean {
  return reference.modelDescription === INSTRUCTIONS_DESCRIPTION || INSTRUCTIONS_ID_PREFIXES.some((prefix) => reference.id.startsWith(prefix));
}

/** The workspace-relative paths of the instructions references among `references` (`path`: what the participant names the file). */
export function instructionReferencePaths(references: readonly (HostReference & { path?: string })[]): ReadonlySet<string> {
  return new Set(references.filter(isInstructionsReference).flatMap((reference) => (reference.path === undefined ? [] : [reference.path])));
}

/** The attachments without the instructions references whose file the project's instructions (`sent`) hold already. */
export function withoutSentInstructions(attachments: readonly Attachment[], instructionPaths: ReadonlySet<string>, sent: readonly string[]): Attachment[] {
  return attachments.filter((attachment) => !(instructionPaths.has(attachment.label) && sent.includes(attachment.label)));
}
