// Links that change under the agent's feet: a symlink re-pointed between the check and the write, and hard links.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allTools } from '../../src/tools/common/registry';
import { defaultProtectedFiles, type ToolContext } from '../../src/tools/common/tool';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../src/base/common/ports';

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
  // Another process flips `dir` (a folder link) and `f.txt` (a file link) between inside and outside,
  // atomically (rename over the link), as fast as it can, while the port writes through them.
  // Before the write re-checked the opened file, more than a third of these writes landed outside (the port wrote wherever the path led).
  test('500 writes through flipping links never reach outside', async () => {
    const flipper = spawn(
      'bash',
      [
        '-c',
        'while :; do ln -sfn real a; mv -T a dir; ln -sfn ../outside b; mv -T b dir; ln -sfn real/f.txt c; mv -T c f.txt; ln -sfn ../outside/file.txt d; mv -T d f.txt; done',
      ],
      { cwd: root, stdio: 'ignore' },
    );
    try {
      const changes = new NodeFileChanges(root);
      let written = 0;
      for (let i = 0; i < 250; i++) {
        for (const path of ['dir/file.txt', 'f.txt']) {
          try {
            await changes.write(path, `agent ${i}\n`, signal);
            written++;
          } catch (error) {
            assert.match(String(error), /outside the workspace|ENOENT|ELOOP|nothing was written/);
          }
        }
      }
      assert.ok(written > 0, 'some writes went through while the links pointed inside');
    } finally {
      flipper.kill('SIGKILL');
    }
    assert.equal(await readFile(join(outside, 'file.txt'), 'utf8'), 'outside\n');
    assert.deepEqual(await readdir(outside), ['file.txt']);
  });

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
