/**
 * A hook run under the change review run_command has: under `auto` a hook runs
 * in the sandbox, where it writes to a copy-on-write layer over the workspace
 * (src/terminal/node/changeLayer.ts). When it ends, its ordinary changes land
 * and what other software would run later (a `.git` with `core.fsmonitor`,
 * `.vscode/tasks.json`, an `.envrc` in a subfolder…), links and protected
 * files are held back for the user (the notification can apply them); a hook
 * that left such changes has its answer ignored. A protected file that appears
 * in the workspace while it runs stops it. The host's run ends only once the
 * hook's processes are gone; when its stop could not confirm that, everything it
 * changed is held (it may still be writing). When the session's commands do not
 * run sandboxed, the guard reviews nothing (the user approved what runs).
 */
import type { ControlFileGuard, ControlRollback, ControlWatch } from '../../terminal/common';
import type { HookHost, HookRunRequest } from './hooks';
import { isHookStillRunning, type HookProcessResult } from './hookProtocol';

/** How a guarded hook ended: its result, or why its answer does not count. */
export type GuardedHookRun = { result: HookProcessResult; problem?: undefined } | { problem: string; result?: undefined };

/** Paths named in one message; the rest are counted. */
const NAMED = 10;

/**
 * Runs `request` on `host` under `guard`. Throws when the hook could not be
 * started, and the signal's reason when the run was cancelled (after what the
 * hook changed was reviewed: that runs even after a stop).
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
  // A process of the hook that a stop could not confirm gone may still write what the review would land: all waits.
  const holdAll = isHookStillRunning(failure) ? `a process of the hook could not be confirmed gone after it was stopped` : undefined;
  // Bounded by the guard itself; not the run's signal, so a stop still reviews what the hook changed.
  const rollback = watch ? await watch.settle(new AbortController().signal, holdAll) : undefined;
  if (signal.aborted) throw signal.reason;
  const stopped = watch?.tripped.aborted === true;
  const undone = rollback ? rollbackText(rollback, stopped) : undefined;
  if (undone !== undefined) return { problem: undone };
  if (result === undefined) {
    // Unreviewed (not sandboxed): the user's log still says why the hook's answer does not count.
    if (isHookStillRunning(failure)) return { problem: failure.message };
    throw failure;
  }
  return { result };
}

/** What the log says of a hook whose changes were held back (it follows "Hook <which> "); undefined when none were. */
function rollbackText(rollback: ControlRollback, stopped: boolean): string | undefined {
  const { moved, failed, incomplete } = rollback;
  const left = moved.length > 0 || failed.length > 0;
  if (!stopped && !left && incomplete === undefined) return undefined;
  const parts: string[] = [];
  if (stopped) parts.push('was stopped: a protected file appeared in the workspace while it ran');
  if (moved.length > 0) {
    parts.push(
      `${stopped ? 'it ' : ''}left changes that make other software run code later (.git at any depth, .vscode, .husky, ` +
        '.github/hooks, *.code-workspace, .envrc…), links or protected files, which a hook in the sandbox may not leave',
    );
    parts.push(`held back (the notification can apply them): ${named(moved.map((entry) => entry.path))}`);
  }
  if (failed.length > 0) parts.push(`NOT applied to the workspace: ${named(failed.map((entry) => `${entry.path} (${entry.reason})`))}`);
  if (incomplete !== undefined) parts.push(`${parts.length > 0 ? '' : 'ran, but '}all it changed was held back: ${incomplete}`);
  const advice = left || incomplete !== undefined ? '. If the hook is yours, make it not write these files' : '';
  return `${parts.join('; ')}; its answer is ignored${advice}`;
}

function named(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED).join(', ');
  return paths.length > NAMED ? `${shown} and ${paths.length - NAMED} more` : shown;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
