/** code_navigation's "definition": where a symbol is defined, as VS Code's language services resolve it (imports followed). */
import type { PreparedAction, ToolContext } from './tool';
import { refused } from './tool';
import { describeLocations, preparePosition, type PositionArgs } from './codeNavigation';

export async function prepareDefinition(args: PositionArgs, ctx: ToolContext, signal: AbortSignal): Promise<PreparedAction> {
  const at = await preparePosition(args, ctx, signal);
  if (!at.ok) return refused(at.reason);
  return {
    execute: async (execSignal) => {
      const found = await at.languages.definitions(at.path, at.position, execSignal);
      if (found.length === 0) return { ok: true, output: `No definition found at ${at.path}:${at.position.line}:${at.position.column}.` };
      return { ok: true, output: await describeLocations(found, ctx, execSignal) };
    },
  };
}
