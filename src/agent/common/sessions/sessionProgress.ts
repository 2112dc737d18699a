/**
 * Saving a session as it goes: after every step, and with every change of status
 * (saved before the surface hears of it, so what it shows is on disk). Shared by
 * the engine and its collaborators (tool calls, compaction) that save mid-step.
 */
import type { Clock } from '../../../base/common';
import type { SessionStore } from '../../../sessionModel/common';
import type { OnAgentEvent } from '../../../sessionModel/common';
import type { AgentSessionState, SessionStatus } from '../../../sessionModel/common';

export class SessionProgress {
  constructor(
    private readonly store: SessionStore<AgentSessionState>,
    private readonly clock: Clock,
  ) {}

  async setStatus(state: AgentSessionState, status: SessionStatus, reason: string | undefined, onEvent: OnAgentEvent): Promise<void> {
    state.status = status;
    state.statusReason = reason;
    await this.save(state);
    onEvent({ type: 'status', status, reason });
  }

  async save(state: AgentSessionState): Promise<void> {
    state.updatedAt = this.clock.now();
    await this.store.save(state);
  }
}
