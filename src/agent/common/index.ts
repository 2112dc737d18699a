/** The agent feature's common layer as other features see it: import from here, not from its files. */
export { errorMessage, type OnAgentEvent, type StepCheckpoint } from './agentEvents';
export { APPROVAL_MODES, type ApprovalMode, isControlPath } from './approvalPolicy';
export { type AgentBudgets, DEFAULT_BUDGETS } from './budgets';
export { sessionIdOf } from './commandArguments';
export { approvalMarkdown, backgroundNote, inlineCode, plainMarkdown, visibleText } from './commandDisplay';
export { compactionNotice, contextUsage, lastCompactionNotice } from './compaction';
export { appliedOrThrow } from './editRefusal';
export { type AgentEvent } from './engine';
export { instructionsForChat } from './projectInstructions';
export { parseSavedSession } from './savedSession';
export { type JournalFolder, journalName, snapshotName } from './sessionJournal';
export { NO_FOLDER_MESSAGE, OPEN_FOLDER_COMMAND, rootForSavedSession } from './sessionRoot';
export { type AgentSessionState, type OriginalFile, type SessionStatus } from './sessionState';
