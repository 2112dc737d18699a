// The core must stay host-free: no 'vscode', no node: built-ins, no sibling layers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..');

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
  /(^|\/)\.\.\/(\.\.\/)*(vscode|node)(\/|$)/.test(specifier);

test('src/core imports neither vscode, nor node built-ins, nor the host layers', () => {
  const offenders = tsFiles(join(root, 'src', 'core')).flatMap((file) =>
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
    "import '../../vscode/statusBar';",
    "import { ok } from './errors';",
  ].join('\n');
  assert.deepEqual(importsOf(sample).filter(forbidden), [
    'vscode',
    'node:fs/promises',
    'child_process',
    'path',
    'node:os',
    '../../vscode/statusBar',
  ]);
});
