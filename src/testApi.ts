/**
 * What the extension exports: read-only views for automation and the end-to-end
 * tests (test/e2e reads them through `vscode.extensions.getExtension(...).exports`).
 * Built from the composed objects; nothing here changes state.
 */
import { contextUsage, lastCompactionNotice } from './agent/common';
import { type AgentSessionState } from './sessionModel/common';
import type { UsageViewState } from './usage/vscode';
import { thinkingDocument, thinkingTitle, type ThinkingPart } from './chat/common';

export interface GatewayExtensionApi {
  statusText(): string | undefined;
  statusState(): string | undefined;
  hasApiKey(): Promise<boolean>;
  /** The text of the last answer @gateway finished. */
  lastChatAnswer(): string | undefined;
  /** The notes that answer showed on outputs the model sent unasked (hosted tool calls), as sentences. */
  lastChatNotes(): string[];
  /** How long activate() took, in milliseconds. */
  activationMs(): number;
  /** The thinking parts shown in the chat (answers' and agent steps'), oldest first: id, the collapsed part's label, the text it opens. */
  thinkingParts(): { id: number; title: string; text: string; totalChars: number }[];
  /** The process's CPU time during activate(), in milliseconds (the wall clock also counts waits for a busy core). */
  activationCpuMs(): number;
  /** activate()'s steps with their wall-clock and CPU time in milliseconds, slowest first. */
  activationSteps(): { name: string; ms: number; cpuMs: number }[];
  /** Approvals the agent waits for: session and call ids with their one-line summary. */
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  /** The inline edit waiting for Accept / Reject, if any. */
  inlineEdit(): { streaming: boolean; proposal: string } | undefined;
  /** The last lines (info and above) written to the Gateway log, oldest first: which engine served each search, among others. */
  recentLog(): string[];
  /** What "Gateway: Show Usage" showed last (its page and the sums it drew), undefined before it was opened. */
  usageView(): UsageViewState | undefined;
  /** The saved agent sessions, newest first. */
  /** `compacted`: the last compaction's notice ("Compacted: 61,200 → 7,900 tokens"); `context`: "context 23k / 32k". */
  agentSessions(): Promise<
    {
      id: string;
      title: string;
      status: string;
      turns: number;
      statusReason?: string;
      compacted?: string;
      context?: string;
      plan?: { step: string; status: string }[];
      projectInstructions?: string[];
      /** The sub-sessions run_subagent started: task, status and the steps they took. */
      subagents?: { task: string; status: string; steps: string[] }[];
      model?: string;
      agent?: { name: string; path: string; tools?: string[] };
      /** Issue 40: the worktree the session works in. */
      worktree?: { path: string; branch: string; baseCommit: string; discarded: boolean };
    }[]
  >;
}

/** The composed objects the views read. */
export interface TestApiSources {
  status: () => { text: string; state: string } | undefined;
  hasApiKey: () => Promise<boolean>;
  lastChatAnswer: () => string | undefined;
  lastChatNotes: () => string[];
  thinkingParts: () => ThinkingPart[];
  activation: { ms: number; cpuMs: number };
  activationSteps: readonly { name: string; ms: number; cpuMs: number }[];
  inlineEdit: () => { streaming: boolean; proposal: string } | undefined;
  recentLog: () => string[];
  usageView: () => UsageViewState | undefined;
  waitingApprovals: () => readonly { sessionId: string; callId: string; summary: string }[];
  savedSessions: () => Promise<AgentSessionState[]>;
}

export function gatewayTestApi(sources: TestApiSources): GatewayExtensionApi {
  return {
    statusText: () => sources.status()?.text,
    statusState: () => sources.status()?.state,
    hasApiKey: () => sources.hasApiKey(),
    lastChatAnswer: () => sources.lastChatAnswer(),
    lastChatNotes: () => sources.lastChatNotes(),
    activationMs: () => sources.activation.ms,
    activationCpuMs: () => sources.activation.cpuMs,
    activationSteps: () => sources.activationSteps.map((s) => ({ name: s.name, ms: s.ms, cpuMs: s.cpuMs })),
    thinkingParts: () =>
      sources.thinkingParts().map((part) => ({ id: part.id, title: thinkingTitle(part), text: thinkingDocument(part), totalChars: part.totalChars })),
    inlineEdit: () => sources.inlineEdit(),
    recentLog: () => sources.recentLog(),
    usageView: () => sources.usageView(),
    pendingApprovals: () => sources.waitingApprovals().map((r) => ({ sessionId: r.sessionId, callId: r.callId, summary: r.summary })),
    agentSessions: async () =>
      (await sources.savedSessions()).map((s) => ({
        id: s.id,
        title: s.title,
        status: s.status,
        turns: s.turns,
        statusReason: s.statusReason,
        compacted: lastCompactionNotice(s),
        context: contextUsage(s),
        plan: s.plan,
        projectInstructions: s.projectInstructions?.files,
        subagents: s.subagents?.map((run) => ({ task: run.task, status: run.status, steps: run.steps })),
        model: s.model,
        agent: s.agent && { name: s.agent.name, path: s.agent.path, tools: s.agent.tools },
        worktree: s.worktree && {
          path: s.worktree.path,
          branch: s.worktree.branch,
          baseCommit: s.worktree.baseCommit,
          discarded: s.worktree.discardedAt !== undefined,
        },
      })),
  };
}
