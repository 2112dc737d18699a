/** command_output: the new output of a command run_command started in the background, and its exit code once it ended; or stops it. */
import * as z from 'zod/mini';
import { type AgentTool, type ToolContext, type ToolOutcome, ToolFailure, guardedPrepare } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import type { BackgroundReport } from './backgroundCommands';
import { omittedNote } from '../../base/common';

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.command_output (a unit test keeps the two equal). */
export const commandOutputArguments = z.object({
  id: z.string().check(z.describe('Its id, e.g. "bg1".')),
  stop: z.optional(z.boolean().check(z.describe('Kill it first.'))),
});

export const commandOutputTool: AgentTool = {
  name: 'command_output',
  description: "Read a background command's new output, or stop it.",
  kind: 'command',
  // Reading or stopping the session's own command: the user approved the start, under the same rules as any command.
  needsApproval: () => false,
  parameters: TOOL_PARAMETERS.command_output,
  prepare: guardedPrepare(
    'command_output',
    commandOutputArguments,
    (args) => `${args.stop ? 'Stop' : 'Read'} background command ${args.id}`,
    (args, ctx) => Promise.resolve({ execute: (signal) => readOrStop(args.id, args.stop === true, ctx, signal) }),
  ),
};

async function readOrStop(id: string, stop: boolean, ctx: ToolContext, signal: AbortSignal): Promise<ToolOutcome> {
  if (!ctx.background) throw new ToolFailure('There are no background commands in this session.');
  const report = stop ? await ctx.background.stop(id) : await ctx.background.read(id, signal);
  return describeBackground(report);
}

/** What the model reads of a start, a read or a stop: the state, the new output, and how to go on. */
export function describeBackground(report: BackgroundReport): ToolOutcome {
  const { id, end } = report;
  const body = `${report.droppedBytes > 0 ? omittedNote(report.droppedBytes) : ''}${report.output}`;
  const output = body.trim() === '' ? '(no new output)' : body.endsWith('\n') ? body.slice(0, -1) : body;
  const lines = [statusOf(report), output];
  if (report.rollback !== '') lines.push(report.rollback);
  if (!end) lines.push(`Still running. Read more with command_output {"id":"${id}"}; stop it with {"id":"${id}","stop":true}.`);
  const ok = end === undefined || (end.exitCode === 0 && end.stoppedBy === undefined) || end.stoppedBy === 'agent';
  return { ok: ok && report.rollback === '', output: lines.join('\n'), ...(end?.exitCode === undefined ? {} : { exitCode: end.exitCode }) };
}

function statusOf({ id, end }: BackgroundReport): string {
  if (!end) return `Background command ${id}, output so far:`;
  const code = end.exitCode === undefined ? 'no exit code' : `exit code ${end.exitCode}`;
  switch (end.stoppedBy) {
    case 'agent':
      return `Background command ${id} was stopped (${code}); its last output:`;
    case 'timeout':
      return `Background command ${id} reached its timeout and was stopped (${code}); its last output:`;
    case 'guard':
      return `Background command ${id} was stopped (${code}); its last output:`;
    case 'session':
      return `Background command ${id} was stopped because the session run ended (${code}); its last output:`;
    default:
      return `Background command ${id} ended: ${code}. Its last output:`;
  }
}
