/** The base feature's node layer as other features see it: import from here, not from its files. */
export { appendWhole, withFolderLock, writeFileAtomic } from './fileSafety';
export { absoluteInside, isInside, workspaceRelative } from './workspaceRoot';
