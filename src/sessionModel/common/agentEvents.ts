/**
 * What a running agent session tells its surface (the chat, the sessions view):
 * one event per thing the user may see change. Its own file because the engine's
 * collaborators (turns, tool calls, compaction, checkpoints) all emit them.
 */
import type { RetryNotice, ToolCall, Usage } from '../../gateway/common';
import type { ApprovalRequest } from './sessionPorts';
import type { ToolOutcome, PlanStep } from '../../tools/common';
import type { Compaction, SessionStatus } from './sessionState';

export type AgentEvent =
  | { type: 'status'; status: SessionStatus; reason?: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** Something the model sent that the agent did not ask for and does not act on (a hosted tool's call): a ready sentence, never history. */
  | { type: 'note'; text: string }
  | { type: 'retry'; notice: RetryNotice }
  | { type: 'approval_needed'; request: ApprovalRequest }
  | { type: 'tool_started'; call: ToolCall; summary: string }
  | { type: 'tool_finished'; call: ToolCall; summary: string; outcome: ToolOutcome; approved: boolean }
  | { type: 'plan'; plan: PlanStep[] }
  /** A sub-session (run_subagent) finished one of its tool calls: the parent's surface shows it as progress under the call. */
  | { type: 'subagent_step'; task: string; summary: string }
  | { type: 'turn'; turn: number; usage: Usage | undefined }
  | { type: 'compacting' }
  | { type: 'compacted'; compaction: Compaction }
  /** A step changed files and was recorded as a checkpoint; `dropped`: older checkpoints given up to stay under the bound. */
  | { type: 'checkpoint'; sessionId: string; checkpoint: StepCheckpoint; dropped: string[] };

/** What the chat shows of a checkpoint: its id (for "Restore to here") and label. */
export interface StepCheckpoint {
  id: number;
  label: string;
}

export type OnAgentEvent = (event: AgentEvent) => void;

/** An error's text for the user or the log (a thrown non-Error as it is). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
