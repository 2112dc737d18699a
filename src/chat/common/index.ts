/** The chat feature's common layer as other features see it: import from here, not from its files. */
export { incompleteReason } from './finishNote';
export { noteMarkdown, withoutNotes } from './notes';
export { ThinkingCollector, ThinkingParts, type ThinkingPart, thinkingDocument, thinkingTitle, THINKING_GONE } from './thinking';
