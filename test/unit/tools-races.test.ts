// Finding 4 of issue 21: races against the unsandboxed tools. A real process keeps re-pointing a
// folder component (`dir`) and final names (`f.txt`, `g.txt`) between the workspace and an outside
// folder (or the workspace's own .git/config), while the tools and ports run up to 1,000 times.
// On the code before the anchored file operations these escaped (counts in the report);
// now not once: every read, write, delete and restore goes through a handle checked after it is opened.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { revertOriginals } from '../../src/core/agent/originals';
import { instructionsForChat } from '../../src/core/agent/projectInstructions';
import { silentLogger } from '../../src/core/ports';
import { allTools } from '../../src/core/tools/registry';
import { defaultProtectedFiles, type ToolContext } from '../../src/core/tools/tool';
import { NodeCommandRunner, NodeFileChanges, NodeWorkspaceFiles, NodeWorkspaceRestore } from '../../src/node';
import { raceLoop, startFlipper, stopFlipper, treeDigest } from './helpers/linkFlipper';

const signal = new AbortController().signal;
const GIT_CONFIG = '[core]\n\tbare = false\n';
let base: string;
let root: string;
let outside: string;
let ctx: ToolContext;
let flipper: ChildProcess | undefined;

async function call(name: string, args: unknown) {
  try {
    const prepared = await allTools.find((tool) => tool.name === name)!.prepare(args, ctx, signal);
    return await prepared.execute(signal);
  } catch (error) {
    return { ok: false, output: String(error) };
  }
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tools-races-')));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(join(root, 'real'), { recursive: true });
  await mkdir(join(root, '.git'));
  await mkdir(join(outside, '.git'), { recursive: true });
  await writeFile(join(root, 'real', 'file.txt'), 'inside\n');
  await writeFile(join(root, 'real', 'g.txt'), 'g inside\n');
  await writeFile(join(root, 'real', 'AGENTS.md'), 'inside rules\n');
  await writeFile(join(root, '.git', 'config'), GIT_CONFIG);
  await writeFile(join(outside, 'file.txt'), 'OUTSIDE CANARY\n');
  await writeFile(join(outside, 'new.txt'), 'OUTSIDE NEW\n');
  await writeFile(join(outside, 'AGENTS.md'), 'OUTSIDE RULES\n');
  await writeFile(join(outside, '.git', 'config'), '[core]\n\thooksPath = /outside\n');
  ctx = {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
  };
  flipper = startFlipper(root, [
    { name: 'dir', targets: ['real', '../outside'] },
    { name: 'f.txt', targets: ['real/file.txt', '../outside/file.txt'] },
    { name: 'g.txt', targets: ['real/g.txt', '.git/config'] },
  ]);
});
afterEach(async () => {
  if (flipper) await stopFlipper(flipper);
  flipper = undefined;
  await rm(base, { recursive: true, force: true });
});

/** Stops the flipper, so what is on disk can be compared. */
async function settle(): Promise<void> {
  if (flipper) await stopFlipper(flipper);
  flipper = undefined;
}

const OUTSIDE_FILE = 'OUTSIDE CANARY\n';

/** Whether the canaries are as they were; puts each one back (and counts it) when not. */
async function canariesChanged(): Promise<string[]> {
  const changed: string[] = [];
  if ((await readFile(join(root, '.git', 'config'), 'utf8')) !== GIT_CONFIG) {
    changed.push('.git/config');
    await writeFile(join(root, '.git', 'config'), GIT_CONFIG);
  }
  if ((await readFile(join(outside, 'file.txt'), 'utf8').catch(() => undefined)) !== OUTSIDE_FILE) {
    changed.push('outside/file.txt');
    await writeFile(join(outside, 'file.txt'), OUTSIDE_FILE);
  }
  if (!existsSync(join(outside, 'new.txt'))) {
    changed.push('outside/new.txt');
    await writeFile(join(outside, 'new.txt'), 'OUTSIDE NEW\n');
  }
  return changed;
}

describe('symlinks re-pointed while the tools run (issue 21, finding 4)', () => {
  test('read_file never returns a file outside the workspace or .git/config', async () => {
    const escapes: string[] = [];
    const { runs, through } = await raceLoop(async (i) => {
      const path = ['dir/file.txt', 'f.txt', 'g.txt'][i % 3];
      const read = await call('read_file', { path });
      if (/OUTSIDE|bare = false/.test(read.output)) escapes.push(`${path}: ${read.output.slice(0, 40)}`);
      return read.ok;
    });
    assert.ok(through > 0, `some reads went through while the links pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} reads escaped`);
  });

  test('write_file and the write port never change anything outside, nor .git/config', async () => {
    const before = await treeDigest(outside);
    const escapes: string[] = [];
    const { runs, through } = await raceLoop(async (i) => {
      const path = ['dir/file.txt', 'f.txt', 'g.txt'][i % 3];
      const ok =
        i % 2 === 0
          ? (await call('write_file', { path, content: `agent ${i}\n` })).ok
          : await ctx.changes.write(path, `port ${i}\n`, signal).then(
              () => true,
              () => false,
            );
      for (const changed of await canariesChanged()) escapes.push(`${i % 2 === 0 ? 'write_file' : 'port'} ${path} → ${changed}`);
      return ok;
    });
    await settle();
    assert.ok(through > 0, `some writes went through while the links pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} writes changed a file they must not`);
    assert.equal(await treeDigest(outside), before, `a write landed outside the workspace (${runs} attempts)`);
  });

  test('revert never deletes a file outside the workspace', async () => {
    const escapes: string[] = [];
    const workspace = { files: ctx.files, protectedFiles: defaultProtectedFiles };
    const { runs, through } = await raceLoop(async () => {
      await writeFile(join(root, 'real', 'new.txt'), 'created by the session\n');
      const ok = await revertOriginals([{ path: 'dir/new.txt', before: undefined }], ctx.changes, signal, workspace).then(
        () => !existsSync(join(root, 'real', 'new.txt')),
        () => false,
      );
      escapes.push(...(await canariesChanged()));
      return ok;
    });
    assert.ok(through > 0, `some reverts went through while the link pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} reverts deleted a file outside`);
  });

  test('a checkpoint restore never writes, renames over or deletes anything outside', async () => {
    const before = await treeDigest(outside);
    const restore = new NodeWorkspaceRestore(root);
    const escapes: string[] = [];
    const { runs, through } = await raceLoop(async (i) => {
      const nonce = `n${i}`;
      let ok = true;
      try {
        await restore.stage('dir/file.txt', nonce, `restored ${i}\n`, signal);
        await restore.commit('dir/file.txt', nonce, signal);
      } catch {
        ok = false;
        await restore.discard('dir/file.txt', nonce, signal).catch(() => undefined);
      }
      await restore.remove('dir/new.txt', signal).catch(() => undefined);
      escapes.push(...(await canariesChanged()));
      return ok;
    });
    await settle();
    assert.ok(through > 0, `some restores went through while the links pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} restores changed a file outside`);
    const after = await treeDigest(outside);
    assert.equal(after, before, `a restore left something in the outside folder (${runs} attempts)`);
  });

  test('project instructions never come from an AGENTS.md outside the workspace', async () => {
    let escapes = 0;
    const { runs, through } = await raceLoop(async () => {
      const found = await instructionsForChat(ctx.files, ['dir/x.ts'], defaultProtectedFiles, signal).catch(() => undefined);
      if (found?.text?.includes('OUTSIDE RULES')) escapes++;
      return found?.text?.includes('inside rules') ?? false;
    });
    assert.ok(through > 0, `some reads went through while the link pointed inside (${runs} attempts)`);
    assert.equal(escapes, 0, `${escapes} of ${runs} reads returned the outside AGENTS.md`);
  });
});
