/** The terminal feature's node layer as other features see it: import from here, not from its files. */
export { BubblewrapSandbox } from './lazySandbox';
export { changeReviewParts } from './changeReviewLoader';
export { nodeHomeFolder } from './homeFolder';
export { NodeCommandRunner } from './nodeCommandRunner';
export { stopGroup, type GroupStop } from './startedChild';
export { plainTerminalText } from './terminalText';
