/**
 * The workspace's hooks at a run's edges (trusted workspaces only, each approved by the user): the session-start
 * hooks' context and files, the prompt hooks' verdict on the user's prompt, a Stop hook that keeps the session going,
 * and the stop and session-end hooks. A hook's failure is the log's, never the session's, unless the user stopped it.
 */
import type { Logger } from '../../../base/common';
import type { RunHooks } from '../../../customization/common';
import { errorMessage, type AgentSessionState } from '../../../sessionModel/common';
import type { AgentTool } from '../../../tools/common';

export interface SessionHookStepsDeps {
  hooks?: RunHooks;
  /** The tools offered now: a hook none of them can trigger is not asked about. */
  tools: () => readonly AgentTool[];
  logger: Logger;
}

/** A developer item of the next request, kept in the transcript (so sent once, in the chain). */
export function addDeveloperItem(state: AgentSessionState, content: string): void {
  const item = { role: 'developer' as const, content };
  state.transcript.push(item);
  state.unsent.push(item);
}

export class SessionHookSteps {
  constructor(private readonly deps: SessionHookStepsDeps) {}

  /**
   * The session-start hooks' context, as an item of the next request; the hook files join the session's project files.
   * The prompt hooks then see the user's prompt: the reason, for the user, when one of them refused it.
   */
  async start(state: AgentSessionState, signal: AbortSignal): Promise<string | undefined> {
    let started;
    try {
      // The tools the session has (a custom agent's list narrows them): a hook none of them can trigger is not asked about.
      const tools = this.deps.tools().map((tool) => tool.name);
      started = await this.deps.hooks?.start(state.turns === 0 ? 'startup' : 'resume', signal, tools);
    } catch (error) {
      if (signal.aborted) throw error;
      this.deps.logger.warn(`Hooks of agent session ${state.id} were not started: ${errorMessage(error)}`);
      return undefined;
    }
    if (!started) return undefined;
    const sent = state.projectInstructions ?? { files: [], bytes: 0 };
    const added = started.files.filter((path) => !sent.files.includes(path));
    if (added.length > 0) state.projectInstructions = { ...sent, files: [...sent.files, ...added] };
    if (started.context !== undefined) addDeveloperItem(state, `The workspace's session-start hooks said:\n${started.context}`);
    return this.prompt(state, signal);
  }

  /**
   * The user's prompt of this run (the last user message not sent yet; none when the session goes on without one) to
   * the prompt hooks. Their context goes with it; a refused prompt leaves the session unsent (as Claude Code erases
   * it), and the reason is returned for the user.
   */
  private async prompt(state: AgentSessionState, signal: AbortSignal): Promise<string | undefined> {
    const prompt = state.unsent.findLast((item) => 'role' in item && item.role === 'user');
    const text = prompt && 'content' in prompt && typeof prompt.content === 'string' ? prompt.content : undefined;
    if (text === undefined || !this.deps.hooks?.promptSubmitted) return undefined;
    let verdict;
    try {
      verdict = await this.deps.hooks.promptSubmitted(text, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      this.deps.logger.warn(`Prompt hooks of agent session ${state.id} failed: ${errorMessage(error)}`);
      return undefined;
    }
    if (verdict.refusal !== undefined) {
      state.unsent = state.unsent.filter((item) => item !== prompt);
      state.transcript = state.transcript.filter((item) => item !== prompt);
      return `A prompt hook refused your prompt, so it was not sent: ${verdict.refusal}. Change it and send it again.`;
    }
    if (verdict.context !== undefined) addDeveloperItem(state, `The workspace's prompt hooks said, about the user's prompt:\n${verdict.context}`);
    return undefined;
  }

  /** The stop and session-end hooks, bounded by their own time limits (the run's signal may be the user's Stop); a failure is the log's. */
  async end(state: AgentSessionState): Promise<void> {
    try {
      await this.deps.hooks?.end(state.status === 'done', state.statusReason ?? state.status, new AbortController().signal);
    } catch (error) {
      this.deps.logger.warn(`Hooks at the end of agent session ${state.id} failed: ${errorMessage(error)}`);
    }
  }

  /** Whether a Stop hook keeps the session going (its reason becomes an item of the next request); a failure is the log's. */
  async stopContinues(state: AgentSessionState, lastMessage: string, signal: AbortSignal): Promise<boolean> {
    let reason: string | undefined;
    try {
      reason = await this.deps.hooks?.stop?.(lastMessage, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      this.deps.logger.warn(`Stop hooks of agent session ${state.id} failed: ${errorMessage(error)}`);
    }
    if (reason === undefined) return false;
    addDeveloperItem(state, reason);
    return true;
  }
}
