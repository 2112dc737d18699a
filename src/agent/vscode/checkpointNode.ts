/** A checkpoint row of the Sessions view, and the scheme of the diff sides the review commands open. */
import type { Checkpoint } from '../../checkpoints/common';

export const CHECKPOINT_SCHEME = 'gateway-checkpoint';

/** A row of the Sessions view under a session: one checkpoint. */
export interface CheckpointNode {
  sessionId: string;
  checkpoint: Checkpoint;
}

export function isCheckpointNode(value: unknown): value is CheckpointNode {
  return typeof value === 'object' && value !== null && 'checkpoint' in value && 'sessionId' in value && typeof value.sessionId === 'string';
}
