/** document_symbols: a file's outline (classes, functions, methods … with their lines), from VS Code's language services. */
import * as z from 'zod/mini';
import { type AgentTool, displayPath, guardedPrepare, parametersOf, refused } from './tool';
import { resolveWorkspacePath } from './pathPolicy';
import { currentText } from './fileWrites';
import { boundedLines, noLanguageServices, type CodeSymbol } from './languageServices';

/** Symbols listed per file, and the characters of the outline. */
export const OUTLINE_LIMIT = 200;
export const OUTLINE_CHARS = 8_000;

const schema = z.object({
  path: z.string().check(z.describe('The file, e.g. "src/a.ts".')),
});

export const documentSymbolsTool: AgentTool = {
  name: 'document_symbols',
  description: "A file's outline from VS Code's language services: classes, functions, methods … with their lines.",
  kind: 'read',
  parameters: parametersOf(schema),
  prepare: guardedPrepare(
    'document_symbols',
    schema,
    (args) => `List the symbols of ${displayPath(args.path)}`,
    async (args, ctx, signal) => {
      const languages = ctx.languages;
      if (!languages) return refused(noLanguageServices);
      const checked = await resolveWorkspacePath(args.path, ctx, signal);
      if (!checked.ok) return refused(checked.reason);
      if ((await currentText(checked.path, ctx, signal)) === undefined) return refused(`No file at "${checked.path}". Use list_files to see what is there.`);
      return {
        execute: async (execSignal) => {
          const symbols = await languages.documentSymbols(checked.path, execSignal);
          if (symbols.length === 0) return { ok: true, output: `No symbols found in ${checked.path}.` };
          return { ok: true, output: boundedLines(outline(symbols, 0), OUTLINE_LIMIT, OUTLINE_CHARS, 'symbols') };
        },
      };
    },
  ),
};

/** One line per symbol, children indented under their parent, in the file's order. */
export function outline(symbols: readonly CodeSymbol[], depth: number): string[] {
  const ordered = [...symbols].sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column);
  return ordered.flatMap((symbol) => [
    `${'  '.repeat(depth)}${symbol.kind} ${symbol.name} (line ${symbol.location.line})`,
    ...outline(symbol.children ?? [], depth + 1),
  ]);
}
