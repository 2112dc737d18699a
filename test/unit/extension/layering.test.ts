// The core must stay host-free: no 'vscode', no node: built-ins, no sibling layers; and the
// lint rule that guards every layer's imports really fails on a forbidden one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { ESLint, Linter } from 'eslint';

const root = join(__dirname, '..', '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier in import/export-from/require/dynamic import. */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) specifiers.push(match[1]);
  return specifiers;
}

const forbidden = (specifier: string) =>
  specifier === 'vscode' ||
  specifier.startsWith('node:') ||
  /^(fs|path|os|child_process|http|https|net|crypto|stream|url|util|events|worker_threads)(\/|$)/.test(specifier) ||
  /^\.\.?\/(.*\/)?(vscode|node)(\/|$)/.test(specifier);

/** Every feature's common/ layer: src/<feature>/common. */
const commonLayers = () =>
  readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((feature) => join(root, 'src', feature.name, 'common'))
    .filter((folder) => statSync(folder, { throwIfNoEntry: false })?.isDirectory());

test('every common/ layer imports neither vscode, nor node built-ins, nor a node/ or vscode/ layer', () => {
  assert.ok(commonLayers().length >= 10, 'the features are there');
  const offenders = commonLayers()
    .flatMap((folder) => tsFiles(folder))
    .flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter(forbidden)
        .map((specifier) => `${relative(root, file)} imports '${specifier}'`),
    );
  assert.deepEqual(offenders, []);
});

test('the import check catches each form of forbidden import', () => {
  const sample = [
    "import * as vscode from 'vscode';",
    "import { readFile } from 'node:fs/promises';",
    "export { x } from 'child_process';",
    "const p = require('path');",
    "const m = await import('node:os');",
    "import '../../status/vscode/statusBar';",
    "import { ok } from './errors';",
  ].join('\n');
  assert.deepEqual(importsOf(sample).filter(forbidden), ['vscode', 'node:fs/promises', 'child_process', 'path', 'node:os', '../../status/vscode/statusBar']);
});

describe('the lint rule checks every layer', () => {
  // The same rule entries the lint config uses, without its type-aware parts, so a
  // snippet can be linted as if it were a file of each layer.
  // One ESLint for every snippet: it keeps the config it computed for each layer's folder.
  let linter: Promise<ESLint> | undefined;
  const makeLinter = async (): Promise<ESLint> => {
    const { ESLint } = await import('eslint');
    const { layerConfigs } = (await import(pathToFileURL(join(root, 'test', 'lint', 'layers.mjs')).href)) as { layerConfigs: Linter.Config[] };
    const tsParser = (await import('typescript-eslint')).parser;
    return new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }, ...layerConfigs],
    });
  };
  const lint = async (file: string, source: string): Promise<string[]> => {
    linter ??= makeLinter();
    const [result] = await (await linter).lintText(source, { filePath: join(root, file) });
    return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
  };
  const forbiddenIn: Record<string, string[]> = {
    'src/agent/common/x.ts': [
      "import * as vscode from 'vscode';",
      "import { readFile } from 'node:fs/promises';",
      "import * as path from 'path';",
      "import { NodeCommandRunner } from '../../terminal/node/nodeCommandRunner';",
      "import { NodeCommandRunner } from '../node/nodeThing';",
      "import { readSettings } from '../../settings/vscode/settings';",
      "import { activate } from '../../extension';",
      "import { createGateway } from '../../composeGateway';",
    ],
    'src/tools/node/x.ts': [
      "import * as vscode from 'vscode';",
      "import { readSettings } from '../../settings/vscode/settings';",
      "import { x } from '../vscode/y';",
    ],
    'src/agent/vscode/x.ts': [
      "import { spawn } from 'node:child_process';",
      "import { readFileSync } from 'fs';",
      "import { NodeWorkspaceFiles } from '../../tools/node/nodeWorkspaceFiles';",
      "import { NodeJournalFolder } from '../node/nodeJournalFolder';",
      "import { ToolApprovals } from '../../tools/vscode/toolApprovals';",
      "import { registerAgent } from '../../composeAgent';",
      "export { GatewayClient } from '../../gateway/common/client';",
    ],
    'src/extension.ts': ["import { NodeWorkspaceFiles } from './tools/node/nodeWorkspaceFiles';"],
    'src/composeAgent.ts': ["import { NodeJournalFolder } from './agent/node/nodeJournalFolder';"],
  };
  for (const [file, imports] of Object.entries(forbiddenIn)) {
    for (const line of imports) {
      test(`${file}: ${line}`, async () => {
        const messages = await lint(file, `${line}\nexport {};\n`);
        assert.ok(messages.length > 0, 'the import passed the lint rule');
        for (const message of messages) assert.match(message, /^no-restricted-imports: /);
      });
    }
  }
  test('allowed imports pass in each layer', async () => {
    assert.deepEqual(await lint('src/agent/common/x.ts', "import { ok } from '../../gateway/common';\nimport { z } from 'zod/mini';\nexport {};\n"), []);
    assert.deepEqual(
      await lint('src/tools/node/x.ts', "import { spawn } from 'node:child_process';\nimport type { Clock } from '../../base/common';\nexport {};\n"),
      [],
    );
    assert.deepEqual(
      await lint(
        'src/agent/vscode/x.ts',
        "import * as vscode from 'vscode';\nimport { AgentEngine } from '../common/engine';\nimport { GatewayClient } from '../../gateway/common';\nexport {};\n",
      ),
      [],
    );
    assert.deepEqual(await lint('src/extension.ts', "import * as vscode from 'vscode';\nimport { NodeWorkspaceFiles } from './tools/node';\nexport {};\n"), []);
    assert.deepEqual(
      await lint('src/composeAgent.ts', "import * as vscode from 'vscode';\nimport { NodeJournalFolder } from './agent/node';\nexport {};\n"),
      [],
    );
  });
});

describe('the features in their written order', () => {
  let order: string[];
  let linter: Promise<ESLint> | undefined;
  const lint = async (file: string, source: string): Promise<string[]> => {
    linter ??= (async () => {
      const { ESLint } = await import('eslint');
      const layers = (await import(pathToFileURL(join(root, 'test', 'lint', 'layers.mjs')).href)) as { layerConfigs: Linter.Config[] };
      const tsParser = (await import('typescript-eslint')).parser;
      return new ESLint({
        cwd: root,
        overrideConfigFile: true,
        overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }, ...layers.layerConfigs],
      });
    })();
    const [result] = await (await linter).lintText(source, { filePath: join(root, file) });
    return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
  };
  const loadOrder = async () => {
    order ??= ((await import(pathToFileURL(join(root, 'test', 'lint', 'layers.mjs')).href)) as { featureOrder: string[] }).featureOrder;
    return order;
  };

  test('every feature folder has its place, and every import between features, require() included, goes down the order', async () => {
    const featureOrder = await loadOrder();
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    assert.deepEqual([...folders].sort(), [...featureOrder].sort());
    const upward: string[] = [];
    for (const feature of folders) {
      for (const file of tsFiles(join(root, 'src', feature))) {
        for (const specifier of importsOf(readFileSync(file, 'utf8')).filter((spec) => spec.startsWith('.'))) {
          const target = relative(join(root, 'src'), join(file, '..', specifier)).split('/')[0];
          if (featureOrder.indexOf(target) > featureOrder.indexOf(feature)) upward.push(`${relative(root, file)} imports '${specifier}'`);
        }
      }
    }
    assert.deepEqual(upward, []);
  });

  test('the lint rule refuses, in each layer, an import of the feature right above, a type alone too, and passes one below', async () => {
    const featureOrder = await loadOrder();
    for (let index = 0; index + 1 < featureOrder.length; index++) {
      const [lower, upper] = [featureOrder[index], featureOrder[index + 1]];
      for (const [layer, line] of [
        ['common', `import type { X } from '../../${upper}/common';`],
        ['node', `import { X } from '../../${upper}/node';`],
        ['vscode', `export { X } from '../../${upper}/common';`],
        ['common/deeper', `import type { X } from '../../../${upper}/common';`],
      ]) {
        const messages = await lint(`src/${lower}/${layer}/x.ts`, `${line}\nexport {};\n`);
        assert.ok(
          messages.some((message) => message.includes(`${lower} may not import`)),
          `src/${lower}/${layer}: ${line} passed the lint rule (${messages.join('; ')})`,
        );
      }
      assert.deepEqual(
        await lint(`src/${upper}/common/x.ts`, `import type { X } from '../../${lower}/common';\nexport {};\n`),
        [],
        `${upper} importing ${lower}`,
      );
    }
    // Further up the order too, not only the next one.
    const messages = await lint('src/base/common/x.ts', "import type { X } from '../../inlineEdit/common';\nexport {};\n");
    assert.match(messages.join('\n'), /base may not import .*inlineEdit/);
  });
});
