/** workspace_symbols: where symbols of a given name are defined anywhere in the workspace, from VS Code's language services. */
import * as z from 'zod/mini';
import { type AgentTool, guardedPrepare, parametersOf, refused } from './tool';
import { boundedLines, noLanguageServices, type CodeSymbol } from './languageServices';
import { LOCATION_CHARS, LOCATION_LIMIT, placeOf } from './codeNavigation';

const schema = z.object({
  query: z.string().check(z.describe('A name or part of one.')),
});

export const workspaceSymbolsTool: AgentTool = {
  name: 'workspace_symbols',
  description: "Where symbols whose name matches the query are defined in the workspace, via VS Code's language services.",
  kind: 'read',
  parameters: parametersOf(schema),
  prepare: guardedPrepare(
    'workspace_symbols',
    schema,
    (args) => `Find symbols named "${args.query}"`,
    async (args, ctx) => {
      const languages = ctx.languages;
      if (!languages) return refused(noLanguageServices);
      const query = args.query.trim();
      if (query === '') return refused('query is empty: give a name or part of one.');
      return {
        execute: async (execSignal) => {
          const symbols = await languages.workspaceSymbols(query, execSignal);
          if (symbols.length === 0) return { ok: true, output: `No symbols match "${query}".` };
          const lines = [...symbols].sort(workspaceFirst).map(symbolLine);
          return { ok: true, output: boundedLines(lines, LOCATION_LIMIT, LOCATION_CHARS, 'symbols') };
        },
      };
    },
  ),
};

/** The workspace's own symbols before those of libraries outside it. */
function workspaceFirst(a: CodeSymbol, b: CodeSymbol): number {
  return Number(b.location.inWorkspace) - Number(a.location.inWorkspace);
}

function symbolLine(symbol: CodeSymbol): string {
  const container = symbol.container ? ` (in ${symbol.container})` : '';
  return `${symbol.kind} ${symbol.name}${container}: ${placeOf(symbol.location)}`;
}
