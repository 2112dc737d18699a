/** code_navigation's "symbols": where symbols of a given name are defined anywhere in the workspace, from VS Code's language services. */
import type { PreparedAction, ToolContext } from './tool';
import { refused } from './tool';
import { boundedLines, noLanguageServices, type CodeSymbol } from './languageServices';
import { LOCATION_CHARS, LOCATION_LIMIT, placeOf } from './codeNavigation';

export function prepareWorkspaceSymbols(query: string, ctx: ToolContext): PreparedAction {
  const languages = ctx.languages;
  if (!languages) return refused(noLanguageServices);
  const trimmed = query.trim();
  if (trimmed === '') return refused('symbol is empty: give a name or part of one.');
  return {
    execute: async (execSignal) => {
      const symbols = await languages.workspaceSymbols(trimmed, execSignal);
      if (symbols.length === 0) return { ok: true, output: `No symbols match "${trimmed}".` };
      const lines = [...symbols].sort(workspaceFirst).map(symbolLine);
      return { ok: true, output: boundedLines(lines, LOCATION_LIMIT, LOCATION_CHARS, 'symbols') };
    },
  };
}

/** The workspace's own symbols before those of libraries outside it. */
function workspaceFirst(a: CodeSymbol, b: CodeSymbol): number {
  return Number(b.location.inWorkspace) - Number(a.location.inWorkspace);
}

function symbolLine(symbol: CodeSymbol): string {
  const container = symbol.container ? ` (in ${symbol.container})` : '';
  return `${symbol.kind} ${symbol.name}${container}: ${placeOf(symbol.location)}`;
}
