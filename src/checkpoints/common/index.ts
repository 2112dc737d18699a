/** The checkpoints feature's common layer as other features see it: import from here, not from its files. */
export {
  droppedNotice,
  RESTORE_FROM_CHAT,
  sessionStateQuery,
  latestRestore,
  restoredHeadline,
  restoredNextStep,
  type RestoredState,
} from './checkpointMessages';
export { type CheckpointFolder, type CheckpointRecord, type WorkspaceRestore } from './checkpointPorts';
export {
  CheckpointRetention,
  type CheckpointShelf,
  checkpointStorageBytes,
  DEFAULT_CHECKPOINT_STORAGE_MB,
  removeSessionFiles,
  RETENTION_BOUNDS,
  retentionNotice,
  type RetentionReport,
} from './checkpointRetention';
export { type Checkpoint, CheckpointStore, type Recovery, type RestorePlan, type RestoreResult, shortLabel } from './checkpoints';
export { RestoreJournalRefused } from './journalPaths';
export { type KeepOriginal, realPathOf, recordOriginal } from './originals';
export { finishRecoveredRevert, migrateSavedOriginals, revertSession } from './sessionRevert';
export { type CaptureCheckpoint, StepCheckpointRecorder } from './stepCheckpoint';
