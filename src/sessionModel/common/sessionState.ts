/**
 * A saved agent session: everything needed to show it, continue it after a
 * reload, replay it when the gateway has lost its chain, and revert its changes.
 */
import type { SessionWorktree } from './sessionWorktree';
import type { ResponseInputItem, ToolCall, Usage } from '../../gateway/common';
import type { PlanStep } from '../../tools/common';

export type SessionStatus =
  /** A turn is in progress. */
  | 'running'
  /** Waiting for the user to approve or deny a tool call. */
  | 'awaiting_approval'
  /** Stopped by an error (402, 429, 5xx, a cut stream) or by the user; can continue. */
  | 'paused'
  /** A budget or the loop guard stopped it; continuing gives it a fresh budget (after the loop guard, steer it first). */
  | 'stopped'
  /** The model answered without asking for a tool: the task is finished. */
  | 'done';

/** Tokens a session has used, summed over its requests (the same fields as one request's usage). */
export type SessionUsage = Usage;

/**
 * A file the session changed, and whether it existed before the session first
 * changed it. Its content then is not here but in the session's checkpoint
 * baseline (checkpoints.ts), so a saved session stays small whatever it edits.
 */
export interface OriginalFile {
  path: string;
  existed: boolean;
  /**
   * The content then, only in a session saved by an older version (which kept it here):
   * moved into the checkpoint baseline when the session is next loaded (migrateOriginals).
   */
  before?: string;
}

export interface AgentSessionState {
  id: string;
  /** The task as the user gave it. */
  title: string;
  model: string;
  createdAt: number;
  updatedAt: number;
  status: SessionStatus;
  /** Why the session is paused or stopped, in words a user can act on. */
  statusReason?: string;
  /** The last completed response: the next request continues from it. */
  previousResponseId?: string;
  /** Every item of the conversation, sent or received, in order: replayed in full when the chain is lost. */
  transcript: ResponseInputItem[];
  /** Items added to the transcript but not yet accepted by the gateway: the next request sends them. */
  unsent: ResponseInputItem[];
  /** Function calls of the last response that have no output yet. */
  pendingCalls: ToolCall[];
  /** Totals across all runs, for display; budgets count each run on its own. */
  turns: number;
  usage: SessionUsage;
  /** Milliseconds spent running, across continues, without waits for the user's approval (shown; budgets count per run). */
  activeMs: number;
  originals: OriginalFile[];
  commandsRun: string[];
  /** The last call's name and arguments, and how many times in a row it came. */
  lastCall?: { signature: string; repeats: number };
  /**
   * The workspace folder (URI string) the session works in, fixed when it starts:
   * in a multi-root window its tools, Continue and Revert must stay in that folder
   * even after folders are reordered. Absent in older files (the first folder).
   */
  rootUri?: string;
  /** Issue 40: the Git worktree the session works in (its root), made from `rootUri`'s repository; absent: it works in `rootUri`. */
  worktree?: SessionWorktree;
  /** The project instruction files (AGENTS.md …) sent so far, and their bytes. */
  projectInstructions?: SentInstructions;
  /** The custom agent (or agent-mode prompt file) the session runs as: its instructions and the only tools it may use. */
  agent?: SessionAgent;
  /** The model's plan as it last sent it with update_plan (shown as a checklist). */
  plan?: PlanStep[];
  /**
   * The current chain's input since the last compaction: `chainBase` (the
   * compacted opening, or a trimmed conversation) then `transcript` from
   * `chainFrom` on. Absent: the chain is the whole transcript. A replay after
   * the gateway lost the chain sends this, bounded, never the whole transcript.
   */
  chainBase?: ResponseInputItem[];
  chainFrom?: number;
  /** Tokens the gateway holds for the current chain (the last request's input and output): what the next request carries before its new items. */
  contextTokens?: number;
  /** The model's context window when the last request was made, for "context 23k / 32k". */
  contextWindow?: number;
  /** Set while a compaction is under way (saved): a reload in the middle resumes it. */
  compacting?: { before: number };
  /** The compactions so far, for the transcript and the views. */
  compactions?: Compaction[];
  /** The sub-sessions run_subagent started (bounded in number: subagents.ts), for the transcript. */
  subagents?: SubagentRecord[];
}

/** A sub-session as the parent keeps it: its task, its steps (bounded) and what it used; its answer is the call's output. */
export interface SubagentRecord {
  task: string;
  /** Transcript index of the run_subagent call's output: the transcript shows the steps there. */
  atItem: number;
  status: SessionStatus;
  reason?: string;
  /** The tool calls it made, as one-line summaries. */
  steps: string[];
  turns: number;
  tokens: number;
}

export interface Compaction {
  /** Transcript length when it happened: the transcript view shows it there. */
  atItem: number;
  at: number;
  before: number;
  after: number;
  /** `summary`: the model summarised; `trim`: old tool outputs became notes (the summary failed, or the gateway said the window was passed). */
  how: 'summary' | 'trim';
  summary?: string;
}

export function newSession(input: {
  id: string;
  title: string;
  model: string;
  now: number;
  rootUri?: string;
  agent?: SessionAgent;
  worktree?: SessionWorktree;
}): AgentSessionState {
  return {
    id: input.id,
    ...(input.agent !== undefined ? { agent: input.agent } : {}),
    ...(input.rootUri !== undefined ? { rootUri: input.rootUri } : {}),
    ...(input.worktree !== undefined ? { worktree: input.worktree } : {}),
    title: input.title,
    model: input.model,
    createdAt: input.now,
    updatedAt: input.now,
    status: 'paused',
    transcript: [],
    unsent: [],
    pendingCalls: [],
    turns: 0,
    usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0 },
    activeMs: 0,
    originals: [],
    commandsRun: [],
  };
}

/**
 * Adds a user message to the session (the task, or a follow-up that steers it).
 * It also resets the loop guard: after the user steers, the same call may be
 * exactly what they asked for ("I fixed it, run it again"), so it must run.
 */
export function addUserMessage(state: AgentSessionState, text: string): void {
  const item: ResponseInputItem = { role: 'user', content: text };
  state.transcript.push(item);
  state.unsent.push(item);
  state.lastCall = undefined;
}

export function canContinue(state: AgentSessionState): boolean {
  return state.status !== 'running' && (state.unsent.length > 0 || state.pendingCalls.length > 0);
}

export interface SessionAgent {
  /** `agent`: a custom agent's file; `prompt`: a prompt file run in agent mode; `plan`: a read-only planning session (`/plan`, no file). */
  kind: 'agent' | 'prompt' | 'plan';
  name: string;
  /** Its file, workspace-relative. */
  path: string;
  /** Sent with every request after the standing instructions (a custom agent's body). */
  instructions?: string;
  /** Our tools' and VS Code tools' names it may use; undefined: every tool. */
  tools?: string[];
  /** Names its file gives that match no tool. */
  unknownTools?: string[];
  /** VS Code tools it names that the user had not enabled when it started (not offered until enabled). */
  notEnabledTools?: string[];
  /** The model its file names, as written. */
  model?: string;
  /** Its file declares MCP servers of its own (Copilot's `mcp-servers`), which are not started: said at the start, not saved. */
  ownMcpServers?: true;
}

/** What a session keeps of its project instructions: the files sent and the skills it read (the summary's list), and their bytes (for the bound across runs). */
export interface SentInstructions {
  files: string[];
  bytes: number;
  /** The SKILL.md files listed to the model in this chain (`~/…` for a home skill): not listed again, and not in the summary unless read. */
  skills?: string[];
}
