/**
 * Round 19b: heldInFolder judges a change set made elsewhere against a folder as it is, by the sandbox review's
 * rules; where the folder cannot be looked at whole, every path is held and the reason given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heldInFolder } from '../../../src/terminal/node/folderChangeReview';

const signal = new AbortController().signal;

function folders(t: { after(fn: () => void): void }): { root: string; source: string; home: string } {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'gw-folder-review-')));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const root = join(parent, 'app');
  const source = join(parent, 'worktree');
  for (const folder of [join(root, 'scripts'), join(source, 'scripts')]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(root, 'scripts', 'env.sh'), 'export A=1\n');
  writeFileSync(join(source, 'scripts', 'env.sh'), 'export A=2\n');
  writeFileSync(join(source, 'notes.txt'), 'hello\n');
  return { root, source, home: parent };
}

const changes = [
  { path: 'notes.txt', deleted: false },
  { path: 'scripts/env.sh', deleted: false },
];

test("what the folder's .envrc sources is held; an ordinary file is not", async (t) => {
  const { root, source, home } = folders(t);
  writeFileSync(join(root, '.envrc'), 'source_env ./scripts/env.sh\n');
  const judged = await heldInFolder({ root, source, changes, home, protectedPatterns: [], signal });
  assert.deepEqual(
    judged.held.map((entry) => [entry.path, entry.reason]),
    [['scripts/env.sh', 'repository-config']],
  );
  assert.equal(judged.incomplete, undefined);
});

test('held by name and by protection in the folder, whatever the worktree had', async (t) => {
  const { root, source, home } = folders(t);
  mkdirSync(join(source, '.vscode'));
  writeFileSync(join(source, '.vscode', 'tasks.json'), '{}\n');
  writeFileSync(join(source, '.env.local'), 'X=1\n');
  const judged = await heldInFolder({
    root,
    source,
    changes: [...changes, { path: '.vscode/tasks.json', deleted: false }, { path: '.env.local', deleted: false }],
    home,
    protectedPatterns: ['.env*'],
    signal,
  });
  assert.deepEqual(judged.held.map((entry) => [entry.path, entry.reason]).sort(), [
    ['.env.local', 'protected'],
    ['.vscode/tasks.json', 'editor-or-agent'],
  ]);
});

test('a folder that cannot be looked at whole holds every path, saying why', async (t) => {
  const { root, source, home } = folders(t);
  // A name that is not UTF-8: the sandbox's look cannot go past it.
  writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xff])]), '');
  const judged = await heldInFolder({ root, source, changes, home, protectedPatterns: [], signal });
  assert.deepEqual(
    judged.held.map((entry) => [entry.path, entry.reason]),
    [
      ['notes.txt', 'unchecked'],
      ['scripts/env.sh', 'unchecked'],
    ],
  );
  assert.match(judged.incomplete ?? '', /not UTF-8/);
});
