/** The checkpoints feature's vscode layer as other features see it: import from here, not from its files. */
export { UndoRestoreOffer } from './undoRestoreOffer';
