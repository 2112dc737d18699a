/**
 * "The agent sees what VS Code sees": a write's outcome lists the problems the
 * language services report for the file afterwards that were not there before,
 * so the model finds its type errors without running a build. The file is
 * checked before the write too (the language services may not have looked at it
 * yet), and both times the problems are read once they have settled.
 */
import { systemClock, type Clock } from '../../base/common';
import type { PreparedCall, ToolContext, ToolOutcome } from './tool';
import { byGravity, boundedLines, formatProblem, type LanguageServices, type Problem } from './languageServices';
import { plural } from '../../base/common';

/** Problems count as settled after this long without a change to the file's ones… */
export const PROBLEMS_QUIET_MS = 300;
/** …and are read at the latest this long after the wait began: a file whose problems do not change says nothing. */
export const PROBLEMS_MAX_WAIT_MS = 2_000;
/** New errors listed after a write, and the characters of the list. */
export const NEW_PROBLEMS_LIMIT = 10;
export const NEW_PROBLEMS_CHARS = 3_000;
/** New warnings are listed only when there are this few; more are only counted. */
const FEW_WARNINGS = 3;
const PROBLEM_LINE_CHARS = 400;

/**
 * Resolves once the problems of `path` have changed and then stayed the same
 * for a whole PROBLEMS_QUIET_MS, or PROBLEMS_MAX_WAIT_MS after the start, or on
 * abort. Waits in sleeps of PROBLEMS_QUIET_MS (a change during one means one
 * more), so virtual time moves it on in tests.
 */
export async function problemsSettled(languages: LanguageServices, path: string, clock: Clock, signal: AbortSignal): Promise<void> {
  let changes = 0;
  const subscription = languages.onDidChangeProblems((paths) => {
    if (paths.includes(path)) changes++;
  });
  try {
    const deadline = clock.now() + PROBLEMS_MAX_WAIT_MS;
    for (let seen = 0; clock.now() < deadline;) {
      await clock.sleep(Math.min(PROBLEMS_QUIET_MS, deadline - clock.now()), signal);
      if (changes > 0 && changes === seen) return;
      seen = changes;
    }
  } catch {
    // Aborted: the caller reads what there is, or stops.
  } finally {
    subscription.dispose();
  }
}

/** The problems of `after` that `before` did not have; the same problem moved to another line is not new. */
export function newProblems(before: readonly Problem[], after: readonly Problem[]): Problem[] {
  const seen = new Map<string, number>();
  for (const problem of before) seen.set(identity(problem), (seen.get(identity(problem)) ?? 0) + 1);
  const added: Problem[] = [];
  for (const problem of after) {
    const count = seen.get(identity(problem)) ?? 0;
    if (count > 0) seen.set(identity(problem), count - 1);
    else added.push(problem);
  }
  return added;
}

function identity(problem: Problem): string {
  return JSON.stringify([problem.severity, problem.source ?? '', problem.code ?? '', problem.message]);
}

/** What is added to a write's output: its new errors (and warnings, when few), bounded; empty when there are none. */
export function newProblemsNote(path: string, added: readonly Problem[]): string {
  const errors = added.filter((problem) => problem.severity === 'error').sort(byGravity);
  const warnings = added.filter((problem) => problem.severity === 'warning').sort(byGravity);
  const listed = warnings.length <= FEW_WARNINGS ? [...errors, ...warnings] : errors;
  if (listed.length === 0 && warnings.length === 0) return '';
  const counts = [errors.length > 0 ? plural(errors.length, 'new error') : '', warnings.length > 0 ? plural(warnings.length, 'new warning') : '']
    .filter((part) => part !== '')
    .join(' and ');
  const lines = listed.map((problem) => formatProblem(problem, PROBLEM_LINE_CHARS));
  const unlisted = listed.length < errors.length + warnings.length ? '\n(the warnings are not listed: get_problems shows them)' : '';
  return `\n\nVS Code now reports ${counts} in ${path}:\n${boundedLines(lines, NEW_PROBLEMS_LIMIT, NEW_PROBLEMS_CHARS, 'problems')}${unlisted}`;
}

/**
 * When a write added no problem but errors VS Code reported before are gone (the model's fix): says so,
 * so the model knows the fix took without calling get_problems. Empty when no error went away.
 */
export function goneErrorsNote(path: string, before: readonly Problem[], after: readonly Problem[]): string {
  const errors = (problems: readonly Problem[]) => problems.filter((problem) => problem.severity === 'error');
  const gone = newProblems(errors(after), errors(before)).length;
  if (gone === 0) return '';
  const remaining = errors(after).length;
  const left = remaining === 0 ? '' : `, ${remaining} remain${remaining === 1 ? 's' : ''}`;
  return `\n\nVS Code reports no new problems in ${path}; ${plural(gone, 'error')} it reported before ${gone === 1 ? 'is' : 'are'} gone${left}.`;
}

/**
 * `prepared` with the problems its write introduces added to its outcome.
 * The file is opened for checking before this resolves, so before the call is
 * shown for approval: the tab it opens cannot cover the approval's diff, which
 * opens after it. Its first problems settle while the user decides; they are
 * read just before the write and again once settled after it. Anything that
 * goes wrong here leaves the outcome as it was: the write happened either way.
 */
export async function reportingNewProblems(prepared: PreparedCall, ctx: ToolContext, signal: AbortSignal): Promise<PreparedCall> {
  const languages = ctx.languages;
  const preview = prepared.preview;
  if (!languages || !preview || prepared.refusal !== undefined) return prepared;
  const clock = ctx.clock ?? systemClock;
  const { settled: warmedUp } = preview.before === undefined ? { settled: Promise.resolve() } : await warmUp(languages, preview.path, clock, signal);
  return {
    ...prepared,
    execute: async (execSignal) => {
      await warmedUp;
      const before = languages.problems([preview.path]);
      const outcome = await prepared.execute(execSignal);
      if (!outcome.ok || outcome.changedPath === undefined) return outcome;
      return withNewProblems(outcome, outcome.changedPath, before, { languages, clock, signal: execSignal, logger: ctx.logger });
    },
  };
}

/**
 * Opens an untracked file for checking; resolves once it is open, with the wait
 * for its first problems (which never rejects). Wrapped in an object: an async
 * function returning the promise itself would wait for it.
 */
async function warmUp(languages: LanguageServices, path: string, clock: Clock, signal: AbortSignal): Promise<{ settled: Promise<void> }> {
  const stop = new AbortController();
  // Listening before the file is opened: its first problems may come at once.
  const settled = problemsSettled(languages, path, clock, AbortSignal.any([signal, stop.signal]));
  try {
    if (!(await languages.track(path, signal))) return { settled: settled.finally(() => stop.abort()) };
  } catch {
    // Not checked beforehand: every problem after the write then counts as new, which still tells the truth about the file.
  }
  stop.abort();
  return { settled: Promise.resolve() };
}

interface SettleContext {
  languages: LanguageServices;
  clock: Clock;
  signal: AbortSignal;
  logger: ToolContext['logger'];
}

async function withNewProblems(outcome: ToolOutcome, path: string, before: readonly Problem[], settle: SettleContext): Promise<ToolOutcome> {
  try {
    const settled = problemsSettled(settle.languages, path, settle.clock, settle.signal);
    await settle.languages.track(path, settle.signal);
    await settled;
    if (settle.signal.aborted) return outcome;
    const after = settle.languages.problems([path]);
    const note = newProblemsNote(path, newProblems(before, after)) || goneErrorsNote(path, before, after);
    return note === '' ? outcome : { ...outcome, output: outcome.output + note, problemsNote: note.trim() };
  } catch (error) {
    settle.logger.warn(`reading the problems of ${path} after a write failed: ${String(error)}`);
    return outcome;
  }
}
