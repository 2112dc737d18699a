/** The agent feature's common layer as other features see it: import from here, not from its files. */
export { approvalMarkdown, backgroundNote, inlineCode, plainMarkdown } from './approvals/commandDisplay';
export { endedMarkdown, staleAnswerMessage, unlinked, waitingLine } from './approvals/approvalText';
export { type AnsweredApproval } from './approvals/pendingApprovals';
export { compactionNotice, contextUsage, lastCompactionNotice } from './engine/compaction';
export { agentStartNotes, modelNamed, promptSessionAgent } from './engine/sessionAgent';
export { isPlanningSession } from './engine/sessionAgent';
export { agentExtras } from './sessions/agentExtrasLoader';
export { filesChangedText, subagentMarkdown } from './sessions/transcriptMarkdown';
export { interruptedNotice, untoldInterrupted, type InterruptedSession } from './sessions/runningSessions';
