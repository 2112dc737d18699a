/**
 * A hook run under the control-file guard run_command has: under `auto` a hook
 * runs in the sandbox, which keeps the workspace writable, so without the guard
 * it could plant a `.git` (with `core.fsmonitor`), `.vscode/tasks.json` or
 * `.envrc` in a subfolder that VS Code or the shell would run later. The guard
 * watches while the hook runs, stops it the moment one appears and moves every
 * new one out of the workspace (the user's notification can restore it); the
 * hook's answer is then not acted on. When the session's commands do not run
 * sandboxed, the guard watches nothing (the user approved what runs).
 */
import type { ControlFileGuard, ControlRollback, ControlWatch } from '../../terminal/common';
import type { HookHost, HookRunRequest } from './hooks';
import type { HookProcessResult } from './hookProtocol';

/** How a guarded hook ended: its result, or why its answer does not count. */
export type GuardedHookRun = { result: HookProcessResult; problem?: undefined } | { problem: string; result?: undefined };

/** Paths named in one message; the rest are counted. */
const NAMED = 10;

/**
 * Runs `request` on `host` under `guard`. Throws when the hook could not be
 * started, and the signal's reason when the run was cancelled (after what the
 * hook left was moved out: that runs even after a stop).
 */
export async function runGuardedHook(
  input: { host: HookHost; request: HookRunRequest; guard?: ControlFileGuard },
  signal: AbortSignal,
): Promise<GuardedHookRun> {
  const { host, request, guard } = input;
  let watch: ControlWatch | undefined;
  try {
    watch = await guard?.watch(signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { problem: `was not run: the workspace could not be checked for control files first (${errorText(error)})` };
  }
  const runSignal = watch ? AbortSignal.any([signal, watch.tripped]) : signal;
  let result: HookProcessResult | undefined;
  let failure: unknown;
  try {
    result = await host.run(request, runSignal);
  } catch (error) {
    failure = error;
  }
  // Bounded by the guard itself; not the run's signal, so a stop still moves out what the hook left.
  const rollback = watch ? await watch.settle(new AbortController().signal) : undefined;
  if (signal.aborted) throw signal.reason;
  const stopped = watch?.tripped.aborted === true;
  const undone = rollback ? rollbackText(rollback, stopped) : undefined;
  if (undone !== undefined) return { problem: undone };
  if (result === undefined) throw failure;
  return { result };
}

/** What the log says of a hook that left control paths (it follows "Hook <which> "); undefined when it left none. */
function rollbackText(rollback: ControlRollback, stopped: boolean): string | undefined {
  const { moved, failed, incomplete } = rollback;
  const left = stopped || moved.length > 0 || failed.length > 0;
  if (!left && incomplete === undefined) return undefined;
  const parts = left
    ? [
        `${stopped ? 'was stopped: it ' : ''}created files that make other software run code later (.git at any depth, .vscode, .husky, ` +
          '.github/hooks, *.code-workspace, .envrc), which a hook in the sandbox may not leave',
      ]
    : ['ran, but the check for control files it may have left was incomplete'];
  if (moved.length > 0) parts.push(`moved out of the workspace (the notification can restore them): ${named(moved.map((entry) => entry.path))}`);
  if (failed.length > 0) parts.push(`NOT moved, look at them yourself: ${named(failed.map((entry) => `${entry.path} (${entry.reason})`))}`);
  if (incomplete !== undefined) parts.push(left ? `the check was incomplete: ${incomplete}` : incomplete);
  return `${parts.join('; ')}; its answer is ignored. If the hook is yours, make it not write these files`;
}

function named(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED).join(', ');
  return paths.length > NAMED ? `${shown} and ${paths.length - NAMED} more` : shown;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
