// Finding 12 of issue 21: a tampered restore journal. Start-up recovery finishes a restore a crash
// interrupted by replaying its journal (renames and removals in the workspace); the journal is a file
// on disk, so every path it lists is checked first (inside the workspace, lexically and through
// symlinks, not protected, not a control file) and a journal listing any other is refused whole,
// logged, and removed: nothing it lists is deleted or renamed over.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/checkpoints/common/checkpoints';
import { NodeCheckpointFolder, NodeWorkspaceRestore } from '../../../src/checkpoints/node/nodeCheckpoints';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';

const signal = new AbortController().signal;
const NONCE = 'abc123';
let base: string;
let root: string;
let outside: string;
let storage: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'restore-journal-')));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  storage = join(base, 'storage', 'session-1');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, '.vscode'));
  await mkdir(outside);
  await mkdir(storage, { recursive: true });
  await writeFile(join(root, '.env'), 'API_KEY=secret\n');
  await writeFile(join(root, '.vscode', 'tasks.json'), '{}\n');
  await writeFile(join(root, 'src', 'a.ts'), 'a\n');
  await writeFile(join(outside, 'victim.txt'), 'outside\n');
  await symlink('../outside', join(root, 'out'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

/** A journal as a crash after "commit" leaves it, listing `paths` as files the restore removes (or renames over). */
async function plantJournal(paths: readonly string[], phase: 'commit' | 'staging' = 'commit', version: string | null = null): Promise<void> {
  const writes = paths.map((path) => ({ path, version }));
  await writeFile(join(storage, 'journal.json'), JSON.stringify({ phase, target: 1, nonce: NONCE, writes, index: '{}' }));
}

function recover(store: CheckpointStore) {
  const workspace = { files: new NodeWorkspaceFiles(root), protectedFiles: ['.env*'] };
  return store.recover(new NodeWorkspaceRestore(root), signal, workspace);
}

const store = () => new CheckpointStore(new NodeCheckpointFolder(storage), { maxBytes: 1_000_000, now: () => 0, nonce: () => 'n1' });

describe('a tampered restore journal at start-up (issue 21, finding 12)', () => {
  const tampered: [string, () => string, () => string][] = [
    ['a ../ path', () => '../outside/victim.txt', () => join(outside, 'victim.txt')],
    ['an absolute path', () => join(outside, 'victim.txt'), () => join(outside, 'victim.txt')],
    ['a path through a symlink out', () => 'out/victim.txt', () => join(outside, 'victim.txt')],
    ['a protected file', () => '.env', () => join(root, '.env')],
    ['a control file', () => '.vscode/tasks.json', () => join(root, '.vscode', 'tasks.json')],
  ];
  for (const [name, listed, file] of tampered) {
    test(`${name}: nothing is deleted, the journal is refused and removed`, async () => {
      // The plain workspace file first: a refusal must come before the first change, not after.
      await plantJournal(['src/a.ts', listed()]);
      const outcome = await recover(store()).then(() => 'replayed', String);
      assert.equal(existsSync(file()), true, `${listed()} was deleted`);
      assert.equal(existsSync(join(root, 'src', 'a.ts')), true, `nothing else was touched either (src/a.ts was deleted; recovery: ${outcome})`);
      assert.match(outcome, /restore journal.*refused/i);
      assert.equal(existsSync(join(storage, 'journal.json')), false, 'the refused journal is not replayed at every start');
    });
  }

  test('a staged copy is never renamed over a file the journal may not name', async () => {
    await writeFile(join(outside, `.victim.txt.gw-restore-${NONCE}.tmp`), 'planted\n');
    await plantJournal(['out/victim.txt'], 'commit', 'a'.repeat(64));
    const outcome = await recover(store()).then(() => 'replayed', String);
    assert.equal(await readFile(join(outside, 'victim.txt'), 'utf8'), 'outside\n');
    assert.match(outcome, /restore journal.*refused/i);
  });

  test('a journal of plain workspace paths is still replayed', async () => {
    await writeFile(join(root, 'src', `.a.ts.gw-restore-${NONCE}.tmp`), 'restored\n');
    await writeFile(join(root, 'src', 'b.ts'), 'created by the session\n');
    await writeFile(
      join(storage, 'journal.json'),
      JSON.stringify({
        phase: 'commit',
        target: 1,
        nonce: NONCE,
        writes: [
          { path: 'src/a.ts', version: 'a'.repeat(64) },
          { path: 'src/b.ts', version: null },
        ],
        index: '{}',
      }),
    );
    assert.equal((await recover(store())).recovered, true);
    assert.equal(await readFile(join(root, 'src', 'a.ts'), 'utf8'), 'restored\n');
    assert.equal(existsSync(join(root, 'src', 'b.ts')), false);
  });
});
