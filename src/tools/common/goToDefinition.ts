/** go_to_definition: where a symbol is defined, as VS Code's language services resolve it (imports followed). */
import { type AgentTool, guardedPrepare, parametersOf, refused } from './tool';
import { describeLocations, positionSchema, positionSummary, preparePosition } from './codeNavigation';

export const goToDefinitionTool: AgentTool = {
  name: 'go_to_definition',
  description: "Where a symbol is defined, via VS Code's language services. Give the line and the name on it.",
  kind: 'read',
  parameters: parametersOf(positionSchema),
  prepare: guardedPrepare(
    'go_to_definition',
    positionSchema,
    (args) => positionSummary('Go to the definition of', args),
    async (args, ctx, signal) => {
      const at = await preparePosition(args, ctx, signal);
      if (!at.ok) return refused(at.reason);
      return {
        execute: async (execSignal) => {
          const found = await at.languages.definitions(at.path, at.position, execSignal);
          if (found.length === 0) return { ok: true, output: `No definition found at ${at.path}:${at.position.line}:${at.position.column}.` };
          return { ok: true, output: await describeLocations(found, ctx, execSignal) };
        },
      };
    },
  ),
};
