/** code_navigation's "references": every use of a symbol, as VS Code's language services find them (not text matches). */
import type { PreparedAction, ToolContext } from './tool';
import { refused } from './tool';
import { describeLocations, preparePosition, type PositionArgs } from './codeNavigation';
import { plural } from '../../base/common';

export async function prepareReferences(args: PositionArgs, ctx: ToolContext, signal: AbortSignal): Promise<PreparedAction> {
  const at = await preparePosition(args, ctx, signal);
  if (!at.ok) return refused(at.reason);
  return {
    execute: async (execSignal) => {
      const found = await at.languages.references(at.path, at.position, execSignal);
      if (found.length === 0) return { ok: true, output: `No references found at ${at.path}:${at.position.line}:${at.position.column}.` };
      return { ok: true, output: `${plural(found.length, 'reference')}:\n${await describeLocations(found, ctx, execSignal)}` };
    },
  };
}
