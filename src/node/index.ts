/** Node implementations of the core's ports. */
export { NodeWorkspaceFiles } from './nodeWorkspaceFiles';
export { NodeFileChanges, checkWriteTarget } from './nodeFileChanges';
export { NodeCommandRunner, type NodeCommandRunnerOptions } from './nodeCommandRunner';
export { FileSharedWindow } from './fileSharedWindow';
export { NodeJournalFolder } from './nodeJournalFolder';
