/** The agent feature's common layer as other features see it: import from here, not from its files. */
export { approvalMarkdown, backgroundNote, inlineCode, plainMarkdown } from './commandDisplay';
export { endedMarkdown, staleAnswerMessage, unlinked, waitingLine } from './approvalText';
export { type AnsweredApproval, type ApprovalOutcome } from './pendingApprovals';
export { compactionNotice, contextUsage, lastCompactionNotice } from './compaction';
export { agentStartNotes, modelNamed, promptSessionAgent } from './sessionAgent';
export { subagentMarkdown } from './transcriptMarkdown';
