/** code_navigation's "outline": a file's symbols (classes, functions, methods … with their lines), from VS Code's language services. */
import type { PreparedAction, ToolContext } from './tool';
import { refused } from './tool';
import { resolveWorkspacePath } from './pathPolicy';
import { currentText } from './fileWrites';
import { boundedLines, noLanguageServices, type CodeSymbol } from './languageServices';

/** Symbols listed per file, and the characters of the outline. */
export const OUTLINE_LIMIT = 200;
export const OUTLINE_CHARS = 8_000;

export async function prepareOutline(path: string, ctx: ToolContext, signal: AbortSignal): Promise<PreparedAction> {
  const languages = ctx.languages;
  if (!languages) return refused(noLanguageServices);
  const checked = await resolveWorkspacePath(path, ctx, signal);
  if (!checked.ok) return refused(checked.reason);
  if ((await currentText(checked.path, ctx, signal)) === undefined) return refused(`No file at "${checked.path}". Use list_files to see what is there.`);
  return {
    execute: async (execSignal) => {
      const symbols = await languages.documentSymbols(checked.path, execSignal);
      if (symbols.length === 0) return { ok: true, output: `No symbols found in ${checked.path}.` };
      return { ok: true, output: boundedLines(outline(symbols, 0), OUTLINE_LIMIT, OUTLINE_CHARS, 'symbols') };
    },
  };
}

/** One line per symbol, children indented under their parent, in the file's order. */
export function outline(symbols: readonly CodeSymbol[], depth: number): string[] {
  const ordered = [...symbols].sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column);
  return ordered.flatMap((symbol) => [
    `${'  '.repeat(depth)}${symbol.kind} ${symbol.name} (line ${symbol.location.line})`,
    ...outline(symbol.children ?? [], depth + 1),
  ]);
}
