/** find_references: every use of a symbol, as VS Code's language services find them (not text matches). */
import { type AgentTool, guardedPrepare, parametersOf, refused } from './tool';
import { describeLocations, positionSchema, positionSummary, preparePosition } from './codeNavigation';
import { plural } from './textLimits';

export const findReferencesTool: AgentTool = {
  name: 'find_references',
  description: "Every use of a symbol (not mere text matches), via VS Code's language services. Give the line and the name on it.",
  kind: 'read',
  parameters: parametersOf(positionSchema),
  prepare: guardedPrepare(
    'find_references',
    positionSchema,
    (args) => positionSummary('Find references to', args),
    async (args, ctx, signal) => {
      const at = await preparePosition(args, ctx, signal);
      if (!at.ok) return refused(at.reason);
      return {
        execute: async (execSignal) => {
          const found = await at.languages.references(at.path, at.position, execSignal);
          if (found.length === 0) return { ok: true, output: `No references found at ${at.path}:${at.position.line}:${at.position.column}.` };
          return { ok: true, output: `${plural(found.length, 'reference')}:\n${await describeLocations(found, ctx, execSignal)}` };
        },
      };
    },
  ),
};
