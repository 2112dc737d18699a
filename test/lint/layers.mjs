// Which layer may import what (src/ARCHITECTURE.md, "Layers"). Used by the lint config, and by
// test/unit/extension/layering.test.ts to prove that each rule fails on a forbidden import.
// src/<feature>/<layer>/, as VS Code and vscode-copilot-chat lay out theirs:
//   common  pure TypeScript: no 'vscode', no Node built-ins, no node/ or vscode/ layer of any feature
//   node    Node implementations of the common layer's ports: no 'vscode', no vscode/ layer
//   vscode  adapters over the VS Code API: no Node built-ins, no node/ layer (the
//           composition root passes Node implementations in through ports)
//   src/extension.ts and src/compose*.ts  the composition root (activate() and the wiring of each
//           area): may import every layer; no layer may import them
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';

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
const compositionRoot = (message) => ({ regex: '(^|\\/)(extension|compose[A-Z][A-Za-z]*)$', message });

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

/**
 * Another feature is reached through its layer's entry file (`../../tools/common`, which is
 * `tools/common/index.ts`), never one of its files: what a feature offers the others is listed in
 * one place, and a file can move inside its feature without touching them. `own` is the importing
 * file's feature (imports inside a feature may name any file).
 */
const throughEntry = (own) => ({
  regex: own ? `^(\\.\\.\\/)+(?!${own}\\/)[A-Za-z]+\\/(common|node|vscode)\\/.+` : `^\\.\\/[A-Za-z]+\\/(common|node|vscode)\\/.+`,
  message: "Import another feature through its layer's entry (`../../<feature>/<layer>`, its index.ts), not one of its files.",
});

const features = readdirSync(new URL('../../src/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The features' written order (src/ARCHITECTURE.md, "The order of the features"), lowest first: a feature
 * may import the ones before it, never one after it — not even a type. No two features import each other.
 */
export const featureOrder = [
  'base',
  'settings',
  'usage',
  'telemetry',
  'rateLimits',
  'gateway',
  'models',
  'status',
  'terminal',
  'tools',
  'sessionModel',
  'checkpoints',
  'customization',
  'agent',
  'chat',
  'inlineEdit',
];
const unplaced = features.filter((feature) => !featureOrder.includes(feature));
if (unplaced.length > 0)
  throw new Error(`src/${unplaced[0]} has no place in the feature order: add it to featureOrder in test/lint/layers.mjs and to src/ARCHITECTURE.md`);

/** An import from `own` that reaches a feature above it: `../../agent/common`, `../../../chat/vscode/x`. */
const belowOnly = (own) => {
  const above = featureOrder.slice(featureOrder.indexOf(own) + 1);
  return above.length === 0
    ? []
    : [
        {
          regex: `^(\\.\\.\\/)+(${above.join('|')})(\\/|$)`,
          message: `A feature imports only the features below it (src/ARCHITECTURE.md, the order of the features): ${own} may not import ${above.join(', ')}.`,
        },
      ];
};

/**
 * ESLint config entries: one no-restricted-imports rule per feature and layer (a later entry for the
 * same file would replace an earlier one's patterns, so each holds the layer's and the entry's).
 */
export const layerConfigs = [
  ...features.flatMap((feature) =>
    layerRules.map(({ files, patterns }) => ({
      files: files.map((glob) => glob.replace('src/*/', `src/${feature}/`)),
      rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, throughEntry(feature), ...belowOnly(feature)] }] },
    })),
  ),
  { files: ['src/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [throughEntry(undefined)] }] } },
];
