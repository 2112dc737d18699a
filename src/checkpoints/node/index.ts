/** The checkpoints feature's node layer as other features see it: import from here, not from its files. */
export { NodeCheckpointFolder, NodeWorkspaceRestore } from './nodeCheckpoints';
export { NodeCheckpointShelf } from './nodeCheckpointShelf';
