/**
 * The tool-call round of a step: each call the last response asked for, in order,
 * prepared, put to the approval policy (and the user when it asks), run, and its
 * output added to the next request. Saved after each call, so a reload resumes at
 * the next one; the files the round changed become a checkpoint.
 */
import { AbortError, type ToolCall } from '../../../gateway/common';
import type { ApprovalRequest, Approver } from '../../../sessionModel/common';
import {
  findTool,
  unknownToolOutput,
  type AgentTool,
  type PreparedCall,
  type ToolContext,
  type ToolOutcome,
  reportingNewProblems,
} from '../../../tools/common';
import { yieldToHost } from '../../../base/common';
import { errorMessage, type OnAgentEvent } from '../../../sessionModel/common';
import { commandApprovalReason, needsApproval, type ApprovalPolicy } from '../approvals/approvalPolicy';
import { USER_DENIED_OUTPUT } from '../approvals/approvalText';
import { TOOL_OUTPUT_SHARE, boundedToolOutput } from './contextBudget';
import { realPathOf, recordOriginal, type KeepOriginal, type StepCheckpointRecorder } from '../../../checkpoints/common';
import type { RequestSizing } from './requestSizing';
import type { RunTimer } from './runTimer';
import type { SessionProgress } from '../sessions/sessionProgress';
import type { AgentSessionState } from '../../../sessionModel/common';
import type { RunHooks } from '../../../customization/common';

export interface ToolRoundDeps {
  approver: Approver;
  /** The tools offered now (read-only ones in an untrusted workspace). */
  tools: () => readonly AgentTool[];
  toolContext: ToolContext;
  policy: () => ApprovalPolicy;
  sizing: RequestSizing;
  progress: SessionProgress;
  checkpoints: StepCheckpointRecorder;
  /** Where a changed file's content from before the session goes (the checkpoint baseline); the session keeps only its path. */
  keepOriginal?: KeepOriginal;
  /** The workspace's hooks for this run (hooks.ts): a pre-tool hook can refuse a call, a post-tool hook adds to its result. */
  hooks?: Pick<RunHooks, 'beforeTool' | 'afterTool'>;
}

export class ToolRound {
  constructor(private readonly deps: ToolRoundDeps) {}

  /** Runs each pending call in order, saving after each, so a reload resumes at the next one. */
  async run(state: AgentSessionState, timer: RunTimer, signal: AbortSignal, onEvent: OnAgentEvent): Promise<void> {
    const changed: string[] = [];
    try {
      await this.runCalls(state, timer, changed, signal, onEvent);
    } finally {
      // Also when the step ended early (stopped, an error): what it changed is a checkpoint all the same.
      if (changed.length > 0) await this.deps.checkpoints.record(state, changed, onEvent);
    }
  }

  /** Answers every call still pending with `output` (not run). */
  answerPendingWith(state: AgentSessionState, output: string): void {
    for (const call of [...state.pendingCalls]) this.answer(state, call, output);
  }

  private async runCalls(state: AgentSessionState, timer: RunTimer, changed: string[], signal: AbortSignal, onEvent: OnAgentEvent): Promise<void> {
    while (state.pendingCalls.length > 0) {
      // The model's answer arrives whole: its decoding, the step's bookkeeping and the call's preparation (the
      // path checks) would otherwise run as one synchronous stretch, the largest block of a long session.
      await yieldToHost();
      if (signal.aborted) throw new AbortError();
      const call = state.pendingCalls[0];
      const tools = this.deps.tools();
      const tool = findTool(tools, call.name);
      const prepared = tool
        ? await reportingNewProblems(await tool.prepare(call.arguments, this.deps.toolContext, signal), this.deps.toolContext, signal)
        : undefined;
      const summary = prepared?.summary ?? `${call.name} (unknown tool)`;
      onEvent({ type: 'tool_started', call, summary });
      let approved = true;
      let outcome: ToolOutcome;
      if (!tool || !prepared) {
        outcome = { ok: false, output: unknownToolOutput(tools, call.name) };
      } else if (prepared.refusal !== undefined) {
        // Refused while preparing: nothing would happen, so there is nothing to approve.
        outcome = await prepared.execute(signal);
      } else {
        const hookRefusal = await this.deps.hooks?.beforeTool(call, signal);
        approved = hookRefusal === undefined && (await this.approved(state, call, tool, prepared, timer, signal, onEvent));
        outcome = approved
          ? await this.withHookOutput(call, await this.execute(state, tool, prepared, signal), signal)
          : { ok: false, output: hookRefusal ?? `${USER_DENIED_OUTPUT} ${deniedWhat[tool.kind]}. Do not retry it; ask or try another way.` };
        if (outcome.ok && outcome.changedPath !== undefined) changed.push(await realPathOf(outcome.changedPath, this.deps.toolContext.files, signal));
      }
      this.answer(state, call, outcome.output, (linesShown) => tool?.continuation?.(call.arguments, linesShown));
      if (outcome.plan) state.plan = outcome.plan;
      await this.deps.progress.save(state);
      onEvent({ type: 'tool_finished', call, summary, outcome, approved });
      if (outcome.plan) onEvent({ type: 'plan', plan: outcome.plan });
    }
  }

  /** Whether the call may run: the policy lets it, or the user approved it (their time to answer not charged to the run). */
  private async approved(
    state: AgentSessionState,
    call: ToolCall,
    tool: AgentTool,
    prepared: PreparedCall,
    timer: RunTimer,
    signal: AbortSignal,
    onEvent: OnAgentEvent,
  ): Promise<boolean> {
    const policy = this.deps.policy();
    const write = { paths: await this.writePaths(prepared, signal), text: prepared.preview?.after };
    const asks = tool.needsApproval ? tool.needsApproval(policy.mode) : needsApproval(policy, tool.kind, prepared.command?.line, write);
    // A command's approval says why it asks (the mode, no sandbox, or the denied pattern it matched).
    const reason = asks && prepared.command && !tool.needsApproval ? commandApprovalReason(policy, prepared.command.line) : undefined;
    const shown = reason && prepared.command ? { ...prepared, command: { ...prepared.command, reason } } : prepared;
    return !asks || (await timer.waiting(() => this.ask(state, call, tool, shown, signal, onEvent)));
  }

  /** The path a write names and the one it really leads to: either may be a file that always asks. */
  private async writePaths(prepared: PreparedCall, signal: AbortSignal): Promise<string[]> {
    const path = prepared.preview?.path;
    if (path === undefined) return [];
    const real = await this.deps.toolContext.files.realPathInside(path, signal).catch(() => undefined);
    return real === undefined || real === path ? [path] : [path, real];
  }

  private async ask(
    state: AgentSessionState,
    call: ToolCall,
    tool: AgentTool,
    prepared: PreparedCall,
    signal: AbortSignal,
    onEvent: OnAgentEvent,
  ): Promise<boolean> {
    const request: ApprovalRequest = {
      sessionId: state.id,
      callId: call.callId,
      toolName: tool.name,
      summary: prepared.summary,
      preview: prepared.preview,
      command: prepared.command,
      input: prepared.input,
    };
    await this.deps.progress.setStatus(state, 'awaiting_approval', prepared.summary, onEvent);
    onEvent({ type: 'approval_needed', request });
    const approved = await this.deps.approver.approve(request, signal);
    if (signal.aborted) throw new AbortError();
    await this.deps.progress.setStatus(state, 'running', undefined, onEvent);
    return approved;
  }

  private async execute(state: AgentSessionState, tool: AgentTool, prepared: PreparedCall, signal: AbortSignal): Promise<ToolOutcome> {
    if (prepared.command) state.commandsRun.push(prepared.command.line);
    let outcome: ToolOutcome;
    try {
      outcome = await prepared.execute(signal);
    } catch (error) {
      if (signal.aborted) throw new AbortError();
      return { ok: false, output: `${tool.name} failed: ${errorMessage(error)}` };
    }
    // Only a write that happened is recorded for "Revert session changes": a refused
    // one (the file changed meanwhile) must not make a revert overwrite the user's work.
    if (outcome.ok && outcome.changedPath !== undefined && prepared.preview) {
      const changed = { path: outcome.changedPath, before: prepared.preview.before };
      if (await recordOriginal(state, changed, this.deps.toolContext.files, this.deps.keepOriginal, signal)) await this.deps.progress.save(state);
    }
    return outcome;
  }

  /** The outcome with what the post-tool hooks add (a formatter's output, a linter's errors). */
  private async withHookOutput(call: ToolCall, outcome: ToolOutcome, signal: AbortSignal): Promise<ToolOutcome> {
    const added = await this.deps.hooks?.afterTool(call, outcome, signal);
    return added === undefined ? outcome : { ...outcome, output: `${outcome.output}\n\n${added}` };
  }

  private answer(state: AgentSessionState, call: ToolCall, output: string, continuation?: (linesShown: number) => string | undefined): void {
    const maxChars = Math.floor(this.deps.sizing.limits(state.model).contextWindow * TOOL_OUTPUT_SHARE * 4);
    const item = { type: 'function_call_output' as const, call_id: call.callId, output: boundedToolOutput(output, maxChars, continuation) };
    state.transcript.push(item);
    state.unsent.push(item);
    state.pendingCalls = state.pendingCalls.filter((pending) => pending !== call);
  }
}

const deniedWhat: Record<AgentTool['kind'], string> = { read: 'call', write: 'change', command: 'command', external: 'tool call' };
