/** get_problems: the errors and warnings VS Code's language services report, most severe first. */
import * as z from 'zod/mini';
import { systemClock } from '../../base/common';
import { type AgentTool, type ToolContext, displayPath, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { protectingPattern } from '../../base/common';
import { resolveWorkspacePath } from './pathPolicy';
import { boundedLines, byGravity, formatProblem, noLanguageServices, type LanguageServices, type Problem } from './languageServices';
import { problemsSettled } from './newProblems';
import { plural } from '../../base/common';

/** Problems listed per call, and the characters of the list. */
export const PROBLEMS_LIMIT = 50;
export const PROBLEMS_CHARS = 8_000;
const PROBLEM_LINE_CHARS = 400;

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.get_problems (a unit test keeps the two equal). */
export const getProblemsArguments = z.object({
  path: z.optional(z.string().check(z.describe('A file or folder (default: the whole workspace).'))),
});

export const getProblemsTool: AgentTool = {
  name: 'get_problems',
  description: 'Errors and warnings VS Code reports (compiler, linters), most severe first.',
  kind: 'read',
  parameters: TOOL_PARAMETERS.get_problems,
  prepare: guardedPrepare(
    'get_problems',
    getProblemsArguments,
    (args) => (args.path === undefined ? 'Get the problems of the workspace' : `Get the problems of ${displayPath(args.path)}`),
    async (args, ctx, signal) => {
      const languages = ctx.languages;
      if (!languages) return refused(noLanguageServices);
      if (args.path === undefined) return { execute: () => Promise.resolve({ ok: true, output: report(languages.problems(), ctx, 'the workspace') }) };
      const checked = await resolveWorkspacePath(args.path, ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      const stat = checked.path === '.' ? { type: 'directory' as const } : await ctx.files.stat(checked.path, signal);
      if (!stat) return refused(`No file or folder at "${checked.path}". Use list_files to see what is there.`);
      if (stat.type === 'directory') {
        const inFolder = (problem: Problem) => checked.path === '.' || problem.path.startsWith(`${checked.path}/`);
        return { execute: () => Promise.resolve({ ok: true, output: report(languages.problems().filter(inFolder), ctx, checked.path) }) };
      }
      return {
        execute: async (execSignal) => ({ ok: true, output: report(await checkedProblems(languages, checked.path, ctx, execSignal), ctx, checked.path) }),
      };
    },
  ),
};

/** The file's problems once the language services have checked it (opened for checking when they had not). */
async function checkedProblems(languages: LanguageServices, path: string, ctx: ToolContext, signal: AbortSignal): Promise<Problem[]> {
  const stop = new AbortController();
  try {
    const settled = problemsSettled(languages, path, ctx.clock ?? systemClock, AbortSignal.any([signal, stop.signal]));
    if (!(await languages.track(path, signal))) await settled;
    return languages.problems([path]);
  } finally {
    stop.abort();
  }
}

/** The list, most severe first, bounded, with counts by severity; problems in protected files are left out. */
function report(problems: readonly Problem[], ctx: ToolContext, where: string): string {
  const shown = problems.filter((problem) => protectingPattern(problem.path, ctx.protectedFiles) === undefined).sort(byGravity);
  if (shown.length === 0) return `No problems reported in ${where}.`;
  const counts = (['error', 'warning', 'information', 'hint'] as const)
    .map((severity) => [severity, shown.filter((problem) => problem.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => plural(count, severity === 'information' ? 'info' : severity))
    .join(', ');
  const lines = shown.map((problem) => formatProblem(problem, PROBLEM_LINE_CHARS));
  return `${counts} in ${where}:\n${boundedLines(lines, PROBLEMS_LIMIT, PROBLEMS_CHARS, 'problems')}`;
}
