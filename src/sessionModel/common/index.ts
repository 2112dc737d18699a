/** The sessionModel feature's common layer as other features see it: import from here, not from its files. */
export { type JournalFolder, SessionJournal, journalName, replayJournal, snapshotName } from './sessionJournal';
export { type ApprovalRequest, type Approver, type SessionStore } from './sessionPorts';
export {
  type AgentSessionState,
  type Compaction,
  type OriginalFile,
  type SentInstructions,
  type SessionAgent,
  type SessionStatus,
  type SubagentRecord,
  addUserMessage,
  canContinue,
  newSession,
} from './sessionState';
export { parseSavedSession } from './savedSession';
export { type AgentEvent, type OnAgentEvent, errorMessage, type StepCheckpoint } from './agentEvents';
export {
  NO_FOLDER_MESSAGE,
  OPEN_FOLDER_COMMAND,
  type OpenFolder,
  type SessionFolders,
  type SessionRoot,
  decidedRoot,
  fileUriOf,
  rootForNewSession,
  rootForSavedSession,
} from './sessionRoot';
export { approvalToAnswer, sessionIdOf } from './commandArguments';
export { planStartNoLongerApplies, sessionActionNoLongerApplies } from './staleActions';
export {
  type SessionPlaceChoice,
  type SessionWorktree,
  WORKTREE_BRANCH_PREFIX,
  describePlace,
  isPlainAbsolutePath,
  worktreeBranchFor,
  worktreePathFor,
  worktreesFolderFor,
} from './sessionWorktree';
