/**
 * The sub-sessions run_subagent starts (tools/common/runSubagent.ts). A
 * sub-session is an engine of its own on a new chain (its own
 * previous_response_id), with the read-only tools and no run_subagent (depth 1),
 * through the same client: the same pacing, retries and usage log. What it uses
 * counts in the parent session: its tokens in the parent's usage, its requests
 * in the parent's turns, so the parent run's budgets bound it (it gets what the
 * run has left); the parent's stop and time budget end it (the call's signal).
 * Only its final answer, bounded, goes back; its steps are kept (bounded) in the
 * parent's state for the transcript. Counts are bounded per session and per turn.
 */
import { headBytes, utf8Length } from '../../../base/common';
import { subagentTools, type SubagentAnswer, type Subagents } from '../../../tools/common';
import type { OnAgentEvent } from '../../../sessionModel/common';
import { runUsage, type RunStart } from './budgets';
import type { AgentEngineDeps } from './engine';
import type { RunHooks } from '../../../customization/common';
import type { RunTimer } from './runTimer';
import { addUsage } from './responseStream';
import { addUserMessage, newSession, type AgentSessionState, type SubagentRecord } from '../../../sessionModel/common';

export const SUBAGENT_LIMITS = {
  /** Sub-sessions one session may start, over all its runs. */
  perSession: 8,
  /** Sub-sessions one response may ask for. */
  perTurn: 3,
  /** Requests one sub-session may make (fewer when the parent run has fewer left). */
  maxTurns: 12,
  /** Bytes of the answer the parent reads. */
  answerBytes: 8_000,
  /** Step lines kept for the transcript. */
  stepsKept: 40,
};

/** The sub-session's standing instructions (sent with each of its requests: short). */
export const SUBAGENT_INSTRUCTIONS = [
  'You are a read-only helper of a coding agent, working in its workspace through tools. Paths are relative to the workspace root.',
  'You cannot change files or run commands. Search before you read, and read only the lines you need.',
  'End with one answer without a tool call, complete on its own: the findings with file paths and line numbers, no preamble. The agent sees only that answer.',
].join('\n');

/** What of the parent engine's deps a sub-session runs on, and how to start one (the engine's own constructor: no import cycle). */
export interface SubagentRunnerDeps extends AgentEngineDeps {
  startEngine: (deps: AgentEngineDeps) => { run(state: AgentSessionState, signal: AbortSignal, onEvent: OnAgentEvent): Promise<AgentSessionState> };
}

/** The parent run a sub-session belongs to: its state, where its budgets count from, and where its events go. */
export interface ParentRun {
  state: AgentSessionState;
  start: RunStart;
  timer: RunTimer;
  onEvent: OnAgentEvent;
}

export class SubagentRunner implements Subagents {
  private parent: ParentRun | undefined;
  /** Sub-sessions started in the parent's current step (keyed by its response: a sub-session adds to the parent's turns). */
  private step = { responseId: undefined as string | undefined, started: 0 };

  constructor(private readonly deps: SubagentRunnerDeps) {}

  /** The engine starts a run: sub-sessions from now on belong to it. */
  startRun(parent: ParentRun): void {
    this.parent = parent;
  }

  async run(task: string, signal: AbortSignal): Promise<SubagentAnswer> {
    const parent = this.parent;
    if (!parent) return { ok: false, answer: 'Subagents are not available here: do the task yourself with your tools.' };
    const refusal = this.refusal(parent);
    if (refusal) return { ok: false, answer: refusal };
    this.step.started++;
    const record: SubagentRecord = { task, atItem: parent.state.transcript.length, status: 'running', steps: [], turns: 0, tokens: 0 };
    parent.state.subagents = [...(parent.state.subagents ?? []), record];
    const child = newSession({ id: parent.state.id, title: task, model: parent.state.model, now: this.deps.clock.now() });
    addUserMessage(child, task);
    let steps = 0;
    const onEvent: OnAgentEvent = (event) => {
      if (event.type === 'tool_finished') {
        steps++;
        if (record.steps.length < SUBAGENT_LIMITS.stepsKept) record.steps.push(event.summary);
        parent.onEvent({ type: 'subagent_step', task, summary: event.summary });
      } else if (event.type === 'retry') parent.onEvent(event);
    };
    try {
      await this.deps.startEngine(this.childDeps(parent)).run(child, signal, onEvent);
    } finally {
      // Spent is spent, whatever the end: the parent's usage and budgets count it.
      addUsage(parent.state, child.usage);
      parent.state.turns += child.turns;
      Object.assign(record, { status: child.status, turns: child.turns, tokens: child.usage.totalTokens });
      if (child.statusReason) record.reason = child.statusReason;
    }
    const answer = boundedAnswer(finalAnswer(child));
    const ok = child.status === 'done';
    const run = { sessionId: parent.state.id, task, steps, tokens: child.usage.totalTokens };
    if (ok) return { ok, answer, run };
    return { ok, answer: `The subagent did not finish (${child.statusReason ?? child.status}).${answer ? ` What it had found:\n${answer}` : ''}`, run };
  }

  /** Why no sub-session may start now, or undefined. */
  private refusal(parent: ParentRun): string | undefined {
    const runs = parent.state.subagents ?? [];
    if (runs.length >= SUBAGENT_LIMITS.perSession)
      return `This session has used its ${SUBAGENT_LIMITS.perSession} subagents: do the task yourself with your tools.`;
    if (this.step.responseId !== parent.state.previousResponseId) this.step = { responseId: parent.state.previousResponseId, started: 0 };
    if (this.step.started >= SUBAGENT_LIMITS.perTurn)
      return `At most ${SUBAGENT_LIMITS.perTurn} subagents a step: wait for these answers, or do the task yourself.`;
    const left = this.left(parent);
    if (left.turns < 1 || left.tokens < 1) return "This run's budget is used up: answer with what you have.";
    return undefined;
  }

  /** What the parent run has left of its turns and tokens. */
  private left(parent: ParentRun): { turns: number; tokens: number } {
    const budgets = this.deps.budgets();
    const used = runUsage(parent.state, parent.start, parent.timer.activeMs());
    return { turns: budgets.maxTurns - used.turns, tokens: budgets.maxTokens - used.totalTokens };
  }

  /** The sub-session's engine: the parent's client, limits and spend gate; read-only tools; no subagents, checkpoints, instructions files or saving. */
  private childDeps(parent: ParentRun): AgentEngineDeps {
    const { subagents: _depthOne, checkpoint: _none, keepOriginal: _kept, projectInstructions: _files, spendGate, hooks, ...shared } = this.deps;
    return {
      ...shared,
      // The parent's approved hooks still judge every call the sub-session makes (a pre-tool hook that
      // guards files must not be bypassed through a helper); its start and end are the parent run's alone.
      ...(hooks ? { hooks: toolHooksOnly(hooks) } : {}),
      store: { save: async () => undefined, load: async () => undefined, list: async () => [] },
      tools: () => subagentTools,
      toolContext: { ...this.deps.toolContext, subagents: undefined, background: undefined },
      instructions: SUBAGENT_INSTRUCTIONS,
      // Bounded by what the parent run has left when the sub-session starts.
      budgets: () => {
        const left = this.left(parent);
        return { ...this.deps.budgets(), maxTurns: Math.min(SUBAGENT_LIMITS.maxTurns, left.turns), maxTokens: left.tokens };
      },
      ...(spendGate ? { spendGate: (_child: AgentSessionState, signal: AbortSignal) => spendGate(parent.state, signal) } : {}),
    };
  }
}

/** The sub-session's last message: its answer (or what it said last before it stopped). */
function finalAnswer(child: AgentSessionState): string {
  for (let i = child.transcript.length - 1; i >= 0; i--) {
    const item = child.transcript[i];
    if (item.type !== 'function_call' && item.type !== 'function_call_output' && item.role === 'assistant') return item.content.trim();
  }
  return '';
}

function boundedAnswer(answer: string): string {
  if (utf8Length(answer) <= SUBAGENT_LIMITS.answerBytes) return answer;
  return `${headBytes(answer, SUBAGENT_LIMITS.answerBytes)}\n(answer cut at ${SUBAGENT_LIMITS.answerBytes} bytes)`;
}

/** The pre- and post-tool part of a run's hooks; start and end do nothing (they belong to the parent run). */
function toolHooksOnly(hooks: RunHooks): RunHooks {
  return {
    start: async () => ({ files: [] }),
    beforeTool: (call, signal) => hooks.beforeTool(call, signal),
    afterTool: (call, result, signal) => hooks.afterTool(call, result, signal),
    end: async () => undefined,
  };
}
