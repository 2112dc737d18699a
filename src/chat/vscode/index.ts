/** The chat feature's vscode layer as other features see it: import from here, not from its files. */
export { runAgentTurn } from './agentTurn';
export { resolvePromptTurn } from './promptTurn';
export { PARTICIPANT_ID } from './context';
export { createChatHandler, followupProvider, LM_VENDOR } from './participant';
export { SHOW_THINKING_COMMAND, THINKING_SCHEME, ThinkingDocuments } from './thinking';
