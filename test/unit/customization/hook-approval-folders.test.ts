// A hook's approval covers what its line runs in the folders its `cd`, `pushd` and runners' folder options lead to,
// read from the shell lexer's words as the sandbox's review reads them (src/terminal/common/shellFolders.ts), and the
// entry file an interpreter runs from a folder. The attack this closes is test/security/attack19a-cd-options.test.ts.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HookCommand } from '../../../src/customization/common/hookConfig';
import { hookContent } from '../../../src/customization/common/hookContent';
import { NodeHookFiles } from '../../../src/customization/node/nodeHookFiles';

const never = new AbortController().signal;
let root: string;

before(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'hook-approval-folders-')));
  await mkdir(join(root, 'tools'));
  await writeFile(join(root, 'tools', 'check'), '#!/bin/sh\necho ok\n');
  await writeFile(join(root, 'tools', 'package.json'), JSON.stringify({ scripts: { lint: 'node ./lint-run.js' } }));
  await writeFile(join(root, 'tools', 'lint-run.js'), '');
  await mkdir(join(root, 'hooks'));
  await writeFile(join(root, 'hooks', 'index.js'), '');
});
after(() => rm(root, { recursive: true, force: true }));

async function covered(command: string): Promise<string[]> {
  const hook: HookCommand = { event: 'postToolUse', format: 'claude', command, cwd: '.', timeoutMs: 1000, source: '.claude/settings.json' };
  const files = new NodeHookFiles({ root, home: undefined });
  const content = await hookContent(hook, files, never);
  assert.ok(
    content.files.every((file) => file.digest !== undefined),
    JSON.stringify(content.files),
  );
  return content.files.map((file) => file.path);
}

describe("a hook's approval and the folders its line works in", () => {
  for (const line of ['cd -P tools && ./check', 'cd -- "tools" && ./check', "pushd 'tools' && ./check", "cd $'tools' && sh check"]) {
    test(`${line}: covers tools/check`, async () => assert.ok((await covered(line)).includes('tools/check')));
  }

  for (const line of ['yarn --cwd tools lint', 'pnpm --dir=tools run lint', 'npm --prefix "tools" run lint']) {
    test(`${line}: covers what tools/package.json's script runs`, async () => assert.ok((await covered(line)).includes('tools/lint-run.js')));
  }

  test('node hooks: covers the folder’s entry file', async () => assert.ok((await covered('node hooks')).includes('hooks/index.js')));
});
