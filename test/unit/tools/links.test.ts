// Links under the agent's feet: a symlink that leads outside at write time, and hard links. (500 writes while another
// process re-points the links: test/integration/tools-races-links.test.ts.)
import assert from 'node:assert/strict';
import { link, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allTools } from '../../../src/tools/common/registry';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';

const signal = new AbortController().signal;
let base: string;
let root: string;
let outside: string;
let ctx: ToolContext;

async function call(name: string, args: unknown) {
  const prepared = await allTools.find((tool) => tool.name === name)!.prepare(args, ctx, signal);
  return prepared.execute(signal);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tools-links-')));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(join(root, 'real'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'file.txt'), 'outside\n');
  ctx = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
  };
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('a symlink re-pointed while the agent writes', () => {
  test("the write port (also the VS Code host's) refuses a path that leads outside at write time, and makes no folder there", async () => {
    await symlink('../outside', join(root, 'out'));
    const changes = new NodeFileChanges(root);
    await assert.rejects(changes.write('out/file.txt', 'x\n', signal), /leads outside the workspace/);
    await assert.rejects(changes.write('out/new/deeper.txt', 'x\n', signal), /leads outside the workspace/);
    assert.deepEqual(await readdir(outside), ['file.txt']);
    await changes.write('real/new/deeper.txt', 'x\n', signal);
    assert.equal(await readFile(join(root, 'real', 'new', 'deeper.txt'), 'utf8'), 'x\n');
  });
});

describe('hard links', () => {
  beforeEach(async () => {
    await writeFile(join(root, '.env'), 'API_KEY=secret\n');
    await link(join(root, '.env'), join(root, 'notes.txt'));
    await writeFile(join(root, 'plain.txt'), 'plain\n');
  });

  test('a hard link to .env is neither read, searched nor written by the tools', async () => {
    const read = await call('read_file', { path: 'notes.txt' });
    assert.equal(read.ok, false);
    assert.match(read.output, /^Refused: "notes\.txt" is a hard link \(the same file has 2 names\), so it may be a protected file/);
    const found = await call('search_text', { pattern: 'API_KEY' });
    assert.equal(found.output, 'No matches for API_KEY in 1 file.\n(1 hard-linked file skipped: one may be a protected file under another name)');
    const written = await call('write_file', { path: 'notes.txt', content: 'x\n' });
    assert.equal(written.ok, false);
    assert.match(written.output, /is a hard link/);
    assert.equal(await readFile(join(root, '.env'), 'utf8'), 'API_KEY=secret\n');
    assert.equal((await call('read_file', { path: 'plain.txt' })).output, 'plain');
  });

  test('the ports refuse it too, checked on the opened file', async () => {
    await assert.rejects(new NodeWorkspaceFiles(root).readText('notes.txt', signal), /is a hard link/);
    await assert.rejects(new NodeFileChanges(root).write('notes.txt', 'x\n', signal), /is a hard link/);
    assert.equal(await readFile(join(root, '.env'), 'utf8'), 'API_KEY=secret\n');
  });
});
