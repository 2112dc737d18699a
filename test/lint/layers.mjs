// Which layer may import what (DESIGN.md, "Layers"). Used by the lint config, and by
// test/unit/layering.test.ts to prove that each rule fails on a forbidden import.
//   src/core    pure TypeScript: no 'vscode', no Node built-ins, no other layer
//   src/node    Node implementations of the core's ports: no 'vscode', no src/vscode
//   src/vscode  adapters over the VS Code API: no Node built-ins, no src/node (the
//               composition root passes Node implementations in through ports)
//   src/extension.ts  the composition root: may import every layer
import { builtinModules } from 'node:module';

const nodeBuiltins = {
  regex: `^(node:.*|${builtinModules
    .filter((name) => !name.startsWith('_'))
    .map((name) => name.replace(/[/]/g, '\\/'))
    .join('|')})(\\/.*)?$`,
  message: 'Node built-ins belong in src/node, behind a port of src/core/ports.ts.',
};
const vscodeModule = { regex: '^vscode$', message: "'vscode' belongs in src/vscode." };
const layer = (name, message) => ({ regex: `^(\\.\\.?\\/)+(\\.\\.\\/)*(src\\/)?${name}(\\/|$)`, message });
const layerFromAnywhere = (name, message) => ({ regex: `(^|\\/)${name}(\\/|$)`, message });

export const layerRules = [
  {
    files: ['src/core/**/*.ts'],
    patterns: [
      vscodeModule,
      nodeBuiltins,
      layerFromAnywhere('(vscode|node)', 'src/core may not import a host layer (src/vscode, src/node): add a port instead.'),
      layerFromAnywhere('extension', 'src/core may not import the composition root.'),
    ],
  },
  {
    files: ['src/node/**/*.ts'],
    patterns: [
      vscodeModule,
      layer('vscode', 'src/node may not import src/vscode.'),
      layerFromAnywhere('extension', 'src/node may not import the composition root.'),
    ],
  },
  {
    files: ['src/vscode/**/*.ts'],
    patterns: [
      nodeBuiltins,
      layer('node', 'src/vscode may not import src/node: the composition root passes Node implementations in through ports.'),
      layerFromAnywhere('extension', 'src/vscode may not import the composition root.'),
    ],
  },
];

/** ESLint config entries: one no-restricted-imports rule per layer. */
export const layerConfigs = layerRules.map(({ files, patterns }) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
}));
