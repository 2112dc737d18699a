/**
 * Records a checkpoint after a step that changed files, so the user can restore
 * the workspace to it. Apart from the tool-call round because its failure is
 * only logged, never the session's: the work itself is done.
 */
import type { Logger } from '../../base/common';
import { errorMessage, type OnAgentEvent, type StepCheckpoint, type AgentSessionState } from '../../sessionModel/common';

/** Records the checkpoint (`changed`: real workspace paths); what the engine is given for it. */
export type CaptureCheckpoint = (
  state: AgentSessionState,
  changed: string[],
  signal: AbortSignal,
) => Promise<{ checkpoint: StepCheckpoint; dropped: string[] }>;

export class StepCheckpointRecorder {
  constructor(
    private readonly capture: CaptureCheckpoint | undefined,
    private readonly logger: Logger,
  ) {}

  async record(state: AgentSessionState, changed: string[], onEvent: OnAgentEvent): Promise<void> {
    if (!this.capture) return;
    try {
      // Its own signal: a step the user stopped is still recorded (local disk work, bounded by the files the step touched).
      const { checkpoint, dropped } = await this.capture(state, changed, new AbortController().signal);
      onEvent({ type: 'checkpoint', sessionId: state.id, checkpoint, dropped });
    } catch (error) {
      this.logger.warn(`session ${state.id}: the checkpoint of step ${state.turns} could not be recorded: ${errorMessage(error)}`);
    }
  }
}
