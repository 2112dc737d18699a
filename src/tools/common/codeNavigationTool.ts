/**
 * code_navigation: VS Code's language services as one tool with an action
 * (one definition in every request costs fewer bytes than four: issue 23).
 * Each action's arguments are checked here; the actions live in their own files.
 */
import * as z from 'zod/mini';
import { type AgentTool, type PreparedAction, type ToolContext, displayPath, guardedPrepare, refused } from './tool';
import { TOOL_PARAMETERS } from './toolParameters';
import { prepareDefinition } from './goToDefinition';
import { prepareReferences } from './findReferences';
import { prepareOutline } from './documentSymbols';
import { prepareWorkspaceSymbols } from './workspaceSymbols';

/** Its arguments; their JSON form, sent to the API, is TOOL_PARAMETERS.code_navigation (a unit test keeps the two equal). */
export const codeNavigationArguments = z.object({
  action: z.enum(['definition', 'references', 'outline', 'symbols']).check(z.describe('outline needs path; symbols, symbol; others, all three.')),
  path: z.optional(z.string().check(z.describe('A file, e.g. "a.ts".'))),
  line: z.optional(z.number().check(z.int(), z.minimum(1), z.describe('1-based line number.'))),
  symbol: z.optional(z.string().check(z.describe('The name on that line, or a query.'))),
});

type NavigationArgs = z.infer<typeof codeNavigationArguments>;

export const codeNavigationTool: AgentTool = {
  name: 'code_navigation',
  description: "VS Code's language services: a symbol's definition or uses, a file's outline, symbols by name.",
  kind: 'read',
  parameters: TOOL_PARAMETERS.code_navigation,
  prepare: guardedPrepare('code_navigation', codeNavigationArguments, summarize, prepareAction),
};

async function prepareAction(args: NavigationArgs, ctx: ToolContext, signal: AbortSignal): Promise<PreparedAction> {
  const { action, path, line, symbol } = args;
  if (action === 'symbols') return symbol === undefined ? refused(missing(action, ['symbol'], args)) : prepareWorkspaceSymbols(symbol, ctx);
  if (action === 'outline') return path === undefined ? refused(missing(action, ['path'], args)) : prepareOutline(path, ctx, signal);
  if (path === undefined || line === undefined || symbol === undefined) return refused(missing(action, ['path', 'line', 'symbol'], args));
  const prepare = action === 'definition' ? prepareDefinition : prepareReferences;
  return prepare({ path, line, symbol }, ctx, signal);
}

/** The refusal the model can act on: what the action needs and which of it is missing. */
function missing(action: NavigationArgs['action'], needed: readonly (keyof NavigationArgs)[], args: NavigationArgs): string {
  const absent = needed.filter((name) => args[name] === undefined);
  return `code_navigation "${action}" needs ${needed.join(', ')}; missing: ${absent.join(', ')}.`;
}

/** The name the UI shows for the call. */
function summarize(args: NavigationArgs): string {
  const at = `${displayPath(args.path ?? '')}:${args.line ?? '?'}`;
  switch (args.action) {
    case 'definition':
      return `Go to the definition of "${args.symbol ?? ''}" (${at})`;
    case 'references':
      return `Find references to "${args.symbol ?? ''}" (${at})`;
    case 'outline':
      return `List the symbols of ${displayPath(args.path ?? '')}`;
    case 'symbols':
      return `Find symbols named "${args.symbol ?? ''}"`;
  }
}
