/** The agent feature's vscode layer as other features see it: import from here, not from its files. */
export { registerAgentCommands } from './agentCommands';
export { AgentSessions, type SessionSink } from './agentSessions';
export { openFolders } from './windowFolders';
export { ApprovalBroker, PROPOSED_SCHEME, soleFolderName } from './approvalBroker';
export { registerDeleteSessionCommand } from './deleteSessionCommand';
export { registerForgetHookDecisions } from './hookDecisionsCommand';
export { PLAN_EDIT_COMMAND, PLAN_START_COMMAND, PLAN_START_IN_WORKTREE_COMMAND } from './planCommands';
export { FileSessionStore } from './sessionStore';
export { SessionsTree, sessionOfNode } from './sessionsTree';
export { TRANSCRIPT_SCHEME, TranscriptProvider } from './transcript';
export { showWaiting } from './waitingIndicators';
export { registerCheckpointCommands } from './checkpointCommandsLoader';
export { registerWorktreeCommands } from './worktreeCommandsLoader';
