/** Node implementations of the core's ports. */
export { NodeWorkspaceFiles } from './nodeWorkspaceFiles';
export { NodeFileChanges } from './nodeFileChanges';
export { NodeCommandRunner, type NodeCommandRunnerOptions } from './nodeCommandRunner';
export { plainTerminalText } from './terminalText';
