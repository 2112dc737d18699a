// Finding 4 of issue 21, the changes: a real process keeps re-pointing a folder (`dir`) and final
// names (`f.txt`, `g.txt`) between the workspace and an outside folder (or .git/config) while
// write_file, the write port, revert and a checkpoint restore run up to 1,000 times
// (helpers/raceWorkspace.ts). Before the anchored file operations .git/config was overwritten and
// files outside were replaced or deleted; now nothing outside changes: every write, rename and delete
// goes through a folder handle and a file handle checked after they were opened.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../../src/checkpoints/common/checkpoints';
import { revertSession } from '../../src/checkpoints/common/sessionRevert';
import { newSession } from '../../src/sessionModel/common/sessionState';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../src/checkpoints/node/nodeCheckpoints';
import { raceLoop, treeDigest } from '../unit/helpers/linkFlipper';
import { raceWorkspace, signal } from '../unit/helpers/raceWorkspace';

const ws = raceWorkspace();

describe('symlinks re-pointed while the tools change files (issue 21, finding 4)', () => {
  test('write_file and the write port never change anything outside, nor .git/config', async () => {
    const before = await treeDigest(ws.outside);
    const escapes: string[] = [];
    const { runs, through } = await raceLoop(async (i) => {
      const path = ['dir/file.txt', 'f.txt', 'g.txt'][i % 3];
      const ok =
        i % 2 === 0
          ? (await ws.call('write_file', { path, content: `agent ${i}\n` })).ok
          : await ws.ctx.changes.write(path, `port ${i}\n`, signal).then(
              () => true,
              () => false,
            );
      for (const changed of await ws.canariesChanged()) escapes.push(`${i % 2 === 0 ? 'write_file' : 'port'} ${path} → ${changed}`);
      return ok;
    });
    await ws.settle();
    assert.ok(through > 0, `some writes went through while the links pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} writes changed a file they must not`);
    assert.equal(await treeDigest(ws.outside), before, `a write landed outside the workspace (${runs} attempts)`);
  });

  test('revert never deletes a file outside the workspace', async () => {
    const escapes: string[] = [];
    const workspace = { files: ws.ctx.files, protectedFiles: defaultProtectedFiles };
    const storage = await mkdtemp(join(tmpdir(), 'race-revert-'));
    const checkpoints = new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n1' });
    const restore = new NodeWorkspaceRestore(ws.root);
    const { runs, through } = await raceLoop(async () => {
      await writeFile(join(ws.root, 'real', 'new.txt'), 'created by the session\n');
      const state = { ...newSession({ id: 'race', title: 'race', model: 'm', now: 0 }), originals: [{ path: 'dir/new.txt', existed: false }] };
      const ok = await revertSession({ state, checkpoints, workspace, restore, save: () => Promise.resolve() }, signal).then(
        () => !existsSync(join(ws.root, 'real', 'new.txt')),
        () => false,
      );
      escapes.push(...(await ws.canariesChanged()));
      return ok;
    });
    assert.ok(through > 0, `some reverts went through while the link pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} reverts deleted a file outside`);
    await rm(storage, { recursive: true, force: true });
  });

  test('a checkpoint restore never writes, renames over or deletes anything outside', async () => {
    const before = await treeDigest(ws.outside);
    const restore = new NodeWorkspaceRestore(ws.root);
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
      escapes.push(...(await ws.canariesChanged()));
      return ok;
    });
    await ws.settle();
    assert.ok(through > 0, `some restores went through while the links pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} restores changed a file outside`);
    const after = await treeDigest(ws.outside);
    assert.equal(after, before, `a restore left something in the outside folder (${runs} attempts)`);
  });
});
