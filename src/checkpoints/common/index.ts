/** The checkpoints feature's common layer as other features see it: import from here, not from its files. */
export {
  droppedNotice,
  RESTORE_FROM_CHAT,
  sessionStateQuery,
  latestRestore,
  restoredHeadline,
  restoredNextStep,
  UNDO_NO_LONGER_APPLIES,
  undoNoLongerApplies,
} from './checkpointMessages';
export { type CheckpointFolder, type CheckpointRecord, type WorkspaceRestore } from './checkpointPorts';
export { CheckpointRetention, type CheckpointShelf, removeSessionFiles, RETENTION_BOUNDS, retentionNotice, type RetentionReport } from './checkpointRetention';
export { type Checkpoint } from './checkpointIndex';
export { CheckpointStore } from './checkpoints';
export { type Recovery, type RestorePlan, type RestoreResult, shortLabel } from './checkpointTypes';
export { RestoreJournalRefused } from './journalPaths';
export { type KeepOriginal, realPathOf, recordOriginal } from './originals';
export { finishRecoveredRevert, migrateSavedOriginals, revertSession } from './sessionRevert';
export { type CaptureCheckpoint, StepCheckpointRecorder } from './stepCheckpoint';
export { KEEP_MINE, OVERWRITE, RESTORE, UNDO_RESTORE, asksBeforeRestore, restoreDone, restoreQuestion } from './checkpointMessages';
export { type FileVersion } from './checkpointIndex';
