// Which layer may import what (src/ARCHITECTURE.md, "Layers"). Used by the lint config, and by
// test/unit/layering.test.ts to prove that each rule fails on a forbidden import.
// src/<feature>/<layer>/, as VS Code and vscode-copilot-chat lay out theirs:
//   common  pure TypeScript: no 'vscode', no Node built-ins, no node/ or vscode/ layer of any feature
//   node    Node implementations of the common layer's ports: no 'vscode', no vscode/ layer
//   vscode  adapters over the VS Code API: no Node built-ins, no node/ layer (the
//           composition root passes Node implementations in through ports)
//   src/extension.ts  the composition root: may import every layer
import { builtinModules } from 'node:module';

const nodeBuiltins = {
  regex: `^(node:.*|${builtinModules
    .filter((name) => !name.startsWith('_'))
    .map((name) => name.replace(/[/]/g, '\\/'))
    .join('|')})(\\/.*)?$`,
  message: "Node built-ins belong in a feature's node/ layer, behind a port of a common/ layer.",
};
const vscodeModule = { regex: '^vscode$', message: "'vscode' belongs in a feature's vscode/ layer." };
/** A relative import that reaches a `name` layer folder: `./node/x`, `../node/x`, `../../tools/node/x`. */
const layerFolder = (name, message) => ({ regex: `^\\.\\.?\\/(.*\\/)?${name}(\\/|$)`, message });
const compositionRoot = (message) => ({ regex: '(^|\\/)extension$', message });

export const layerRules = [
  {
    files: ['src/*/common/**/*.ts'],
    patterns: [
      vscodeModule,
      nodeBuiltins,
      layerFolder('(vscode|node)', 'A common/ layer may not import a node/ or vscode/ layer: add a port instead.'),
      compositionRoot('A common/ layer may not import the composition root.'),
    ],
  },
  {
    files: ['src/*/node/**/*.ts'],
    patterns: [
      vscodeModule,
      layerFolder('vscode', 'A node/ layer may not import a vscode/ layer.'),
      compositionRoot('A node/ layer may not import the composition root.'),
    ],
  },
  {
    files: ['src/*/vscode/**/*.ts'],
    patterns: [
      nodeBuiltins,
      layerFolder('node', 'A vscode/ layer may not import a node/ layer: the composition root passes Node implementations in through ports.'),
      compositionRoot('A vscode/ layer may not import the composition root.'),
    ],
  },
];

/** ESLint config entries: one no-restricted-imports rule per layer. */
export const layerConfigs = layerRules.map(({ files, patterns }) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
}));
