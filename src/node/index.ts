/** Node implementations of the core's ports. */
export { NodeWorkspaceFiles } from './nodeWorkspaceFiles';
export { NodeFileChanges } from './nodeFileChanges';
export type { AnchorOptions } from './anchoredPaths';
export * from './anchoredRefusals';
export { NodeCommandRunner, type NodeCommandRunnerOptions } from './nodeCommandRunner';
export { plainTerminalText } from './terminalText';
export { FileSharedWindow } from './fileSharedWindow';
export { NodeJournalFolder } from './nodeJournalFolder';
export { RipgrepSearch, ripgrepLimits, type RipgrepLimits } from './ripgrep';
export { findRipgrepOnPath, findVsCodeRipgrep } from './ripgrepLocator';
export { NodeCheckpointFolder, NodeWorkspaceRestore } from './nodeCheckpoints';
export { FileUsageStorage } from './fileUsageStorage';
