/** run_command: runs a shell command line in a workspace folder and reports its exit code and the end of its output. */
import * as z from 'zod/mini';
import { type AgentTool, type ToolContext, type ToolOutcome, ToolFailure, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { resolveWorkspacePath } from './pathPolicy';
import { omittedNote, splitOmittedNote, tailBytes } from '../../base/common';
import { describeBackground } from './commandOutput';
import { LINGERING_REASON, sandboxFailure, sandboxFailureNote, sandboxNote, rollbackNote, type CommandResult, type ControlWatch } from '../../terminal/common';

export const defaultTimeoutSeconds = 60;
export const maxTimeoutSeconds = 600;
/** The end of the output is what matters (the error, the summary line), so the tail is kept. */
export const outputTailBytes = 8 * 1024;

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.run_command (a unit test keeps the two equal). */
export const runCommandArguments = z.object({
  command: z.string().check(z.minLength(1), z.describe('Shell command line.')),
  cwd: z.optional(z.string().check(z.describe('Working folder (default ".").'))),
  timeout: z.optional(
    z.number().check(z.positive(), z.maximum(maxTimeoutSeconds), z.describe(`Seconds before it is stopped (default ${defaultTimeoutSeconds}).`)),
  ),
  background: z.optional(z.boolean().check(z.describe('Keep running (server, watcher); returns an id.'))),
});

export const runCommandTool: AgentTool = {
  name: 'run_command',
  description: 'Run a shell command (build, test, git …) with no input; ' + `returns its exit code and the last ${outputTailBytes / 1024} KB of output.`,
  kind: 'command',
  parameters: TOOL_PARAMETERS.run_command,
  prepare: guardedPrepare(
    'run_command',
    runCommandArguments,
    (args) => `${args.background ? 'Run in the background' : 'Run'} ${oneLine(args.command)}`,
    async (args, ctx, signal) => {
      const checked = await resolveWorkspacePath(args.cwd ?? '.', ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      const stat = await ctx.files.stat(checked.path, signal);
      if (stat?.type !== 'directory') return refused(`The working folder "${checked.path}" does not exist or is not a folder.`);
      if (args.background) {
        const background = { command: args.command, cwd: checked.path, lifetimeSeconds: args.timeout };
        return { command: { line: args.command, cwd: checked.path, background: true }, execute: (execSignal) => startIn(background, ctx, execSignal) };
      }
      const timeoutSeconds = args.timeout ?? defaultTimeoutSeconds;
      return {
        command: { line: args.command, cwd: checked.path },
        execute: (execSignal) => runIn(checked.path, args.command, timeoutSeconds, ctx, execSignal),
      };
    },
  ),
};

/** The command's first line, short enough for a progress line. */
function oneLine(command: string): string {
  const trimmed = command.trim();
  const first = trimmed.split('\n')[0];
  if (first.length > 80) return `${first.slice(0, 79)}…`;
  return first === trimmed ? first : `${first} …`;
}

async function runIn(cwd: string, command: string, timeoutSeconds: number, ctx: ToolContext, signal: AbortSignal): Promise<ToolOutcome> {
  const watch = await watchForControlFiles(ctx, signal);
  // A control path that appears while the command runs stops it at once: other software may act on it within a second.
  const runSignal = watch ? AbortSignal.any([signal, watch.tripped]) : signal;
  let result: CommandResult | undefined;
  let failure: unknown;
  try {
    result = await ctx.commands.run(command, cwd, timeoutSeconds * 1000, runSignal);
  } catch (error) {
    failure = error;
  }
  // Also after the user's stop: what the command left must not stay. The guard bounds its own time. A process of it
  // that outlived its stop may still write: then nothing lands unasked.
  const lingering = result?.lingering === true || (failure instanceof Error && 'lingering' in failure);
  const rollback = watch ? await watch.settle(new AbortController().signal, lingering ? LINGERING_REASON : undefined) : undefined;
  const stoppedByGuard = result === undefined && watch?.tripped.aborted === true && !signal.aborted;
  const rolledBack = rollback ? rollbackNote(rollback, stoppedByGuard) : '';
  const after = rolledBack === '' ? '' : `\n${rolledBack}`;
  if (result === undefined) {
    if (signal.aborted) return { ok: false, output: `Stopped: the user cancelled the command; it was killed.${after}` };
    if (stoppedByGuard) return { ok: false, output: rolledBack };
    throw new ToolFailure(`The command could not be run: ${failure instanceof Error ? failure.message : String(failure)}${after}`);
  }
  const outcome = describeResult(result, timeoutSeconds);
  return { ...outcome, ok: outcome.ok && rolledBack === '', output: `${outcome.output}${after}` };
}

/** Starts the command and leaves it running: the model reads its first output, and its id for command_output. */
async function startIn(request: { command: string; cwd: string; lifetimeSeconds?: number }, ctx: ToolContext, signal: AbortSignal): Promise<ToolOutcome> {
  if (!ctx.background) throw new ToolFailure('Commands cannot run in the background here; run it without background.');
  const watch = await watchForControlFiles(ctx, signal);
  const lifetime = request.lifetimeSeconds === undefined ? {} : { lifetimeMs: request.lifetimeSeconds * 1000 };
  const report = await ctx.background.start({ command: request.command, cwd: request.cwd, ...lifetime, ...(watch ? { watch } : {}) }, signal);
  if (signal.aborted) return { ok: false, output: `Stopped: the user cancelled the command; it was killed.` };
  const outcome = describeBackground(report);
  const note = report.sandboxed ? `\n${sandboxNote(report.sandboxed.network)}` : '';
  return { ...outcome, output: `Started in the background as ${report.id}.\n${outcome.output}${note}` };
}

/** The guard's watch; a workspace it cannot check means the command does not run unasked (the model reads why). */
async function watchForControlFiles(ctx: ToolContext, signal: AbortSignal): Promise<ControlWatch | undefined> {
  try {
    return await ctx.controlGuard?.watch(signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolFailure(`The command was not run: the sandbox could not check the workspace for control files first (${reason}).`);
  }
}

function describeResult(result: CommandResult, timeoutSeconds: number): ToolOutcome {
  const host = splitOmittedNote(result.output);
  const tail = tailBytes(host.text, outputTailBytes);
  const omitted = host.omittedBytes + tail.omittedBytes;
  const output = `${omitted > 0 ? omittedNote(omitted) : ''}${tail.text}`;
  const status = result.timedOut
    ? `Timed out after ${timeoutSeconds} s; the command was killed.`
    : result.exitCode === undefined
      ? 'The command was killed before it exited (no exit code).'
      : `Exit code ${result.exitCode}.`;
  const body = output.trim() === '' ? '(no output)' : output;
  const ok = result.exitCode === 0 && !result.timedOut;
  if (!result.sandboxed) return { ok, output: `${status}\n${body}`, exitCode: result.exitCode };
  const failure = sandboxFailure(result, result.sandboxed);
  const note = `${body.endsWith('\n') ? '' : '\n'}${sandboxNote(result.sandboxed.network)}${failure ? `\n${sandboxFailureNote(failure)}` : ''}`;
  const sandbox = { network: result.sandboxed.network, ...(failure ? { failure } : {}) };
  return { ok, output: `${status}\n${body}${note}`, exitCode: result.exitCode, sandbox };
}
