/** Node implementations of the core's ports. */
export { NodeWorkspaceFiles } from './nodeWorkspaceFiles';
export { NodeFileChanges, checkWriteTarget } from './nodeFileChanges';
export { NodeCommandRunner, type NodeCommandRunnerOptions } from './nodeCommandRunner';
export { plainTerminalText } from './terminalText';
export { FileSharedWindow } from './fileSharedWindow';
export { NodeJournalFolder } from './nodeJournalFolder';
export { NodeCheckpointFolder, NodeWorkspaceRestore } from './nodeCheckpoints';
export { FileUsageStorage } from './fileUsageStorage';
