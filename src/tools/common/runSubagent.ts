/**
 * run_subagent: hands a self-contained side task (a search across the codebase,
 * a review of a diff) to a sub-session with its own chain and the read-only
 * tools. The parent reads only the sub-session's final answer, bounded, not the
 * files it listed and read on the way: that is what it saves the parent, whose
 * every later request would carry those outputs again. The sub-session runs in
 * the agent feature (the `Subagents` port, ToolContext.subagents); without it
 * the call is refused. Its definition is sent with every request: kept short.
 */
import * as z from 'zod/mini';
import { type AgentTool, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';

/** Characters of a task: a task is a paragraph, not a file pasted in (the sub-session can read files itself). */
export const MAX_SUBAGENT_TASK_CHARS = 4000;

export interface SubagentAnswer {
  /** False when the sub-session did not finish (a budget, a stop, a refusal): `answer` then says why. */
  ok: boolean;
  /** Its final answer, bounded; what the parent model reads. */
  answer: string;
  /** What the chat shows of a sub-session that ran; none when it was refused before it started. */
  run?: SubagentRun;
}

/** A sub-session as the chat shows it: a line with its task and steps, and the way to its transcript. */
export interface SubagentRun {
  /** The parent session (whose transcript holds the sub-session's steps). */
  sessionId: string;
  task: string;
  /** Tool calls it made. */
  steps: number;
  /** Tokens it used (counted in the parent's usage too). */
  tokens: number;
}

/** Runs sub-sessions for one agent run (agent/common/engine/subagents.ts). Never rejects. */
export interface Subagents {
  run(task: string, signal: AbortSignal): Promise<SubagentAnswer>;
}

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.run_subagent (a unit test keeps the two equal). */
export const runSubagentArguments = z.object({
  task: z.string().check(z.describe('The task, self-contained.')),
});

export const runSubagentTool: AgentTool = {
  name: 'run_subagent',
  description: 'Hand a side task (codebase search, review) to a read-only helper; get only its answer.',
  // Changes nothing: the sub-session has only the read-only tools.
  kind: 'read',
  parameters: TOOL_PARAMETERS.run_subagent,
  prepare: guardedPrepare(
    'run_subagent',
    runSubagentArguments,
    (args) => `Subagent: ${oneLine(args.task)}`,
    async (args, ctx) => {
      const subagents = ctx.subagents;
      if (!subagents) return refused('Subagents are not available here: do the task yourself with your tools.');
      const task = args.task.trim();
      if (task === '') return refused('The task is empty: say what the subagent must find or check, and what to answer with.');
      if (task.length > MAX_SUBAGENT_TASK_CHARS)
        return refused(`The task has ${task.length} characters; keep it under ${MAX_SUBAGENT_TASK_CHARS} (name the files, the helper reads them itself).`);
      return {
        execute: async (signal) => {
          const result = await subagents.run(task, signal);
          return { ok: result.ok, output: result.answer, ...(result.run ? { subagent: result.run } : {}) };
        },
      };
    },
  ),
};

/** The task as a line of the UI: its first 80 characters. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
