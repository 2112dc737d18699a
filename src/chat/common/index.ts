/** The chat feature's common layer as other features see it: import from here, not from its files. */
export { incompleteReason } from './finishNote';
export { droppedNote, streamFitted } from './historyFit';
export { estimateTokens, toChatMessages } from './languageModelMessages';
