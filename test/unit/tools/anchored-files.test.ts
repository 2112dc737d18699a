// The anchored file operations without a race: what the opened handle is checked against
// (inside, not protected, not a control file reached by another name, where the caller's check
// said), and that ordinary files, links inside the workspace and named control files still work.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ChangedWhileOpenedError, ControlFileError, NotAFileError, OutsideWorkspaceError, ProtectedFileError } from '../../../src/tools/node/anchoredRefusals';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { NodeWorkspaceRestore } from '../../../src/checkpoints/node/nodeCheckpoints';

const signal = new AbortController().signal;
let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'anchored-')));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, '.vscode'));
  await mkdir(outside);
  await writeFile(join(root, 'src', 'a.ts'), 'a\n');
  await writeFile(join(root, '.vscode', 'settings.json'), '{}\n');
  await writeFile(join(root, '.env'), 'API_KEY=secret\n');
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

// On Linux through /proc (race-free); and the way macOS and Windows take, without it (checked after the open).
for (const procFd of [true, false])
  describe(`anchored file operations (${procFd ? '/proc/self/fd' : 'without /proc'})`, () => {
    test('a symlink inside the workspace is followed: the write changes its target and the link stays', async () => {
      await symlink('src/a.ts', join(root, 'a-link.ts'));
      await new NodeFileChanges(root, { procFd }).write('a-link.ts', 'through the link\n', signal);
      assert.equal(await readlink(join(root, 'a-link.ts')), 'src/a.ts');
      assert.equal(await readFile(join(root, 'src', 'a.ts'), 'utf8'), 'through the link\n');
      assert.equal(await new NodeWorkspaceFiles(root, { procFd }).readText('a-link.ts', signal), 'through the link\n');
    });

    test('a control file is written when named, refused when reached by another name', async () => {
      const changes = new NodeFileChanges(root, { procFd });
      await changes.write('.vscode/settings.json', '{ "named": true }\n', signal);
      await changes.write('.husky/pre-commit', 'echo named\n', signal);
      assert.equal(await readFile(join(root, '.husky', 'pre-commit'), 'utf8'), 'echo named\n');
      await symlink('.vscode/settings.json', join(root, 'notes.json'));
      await assert.rejects(changes.write('notes.json', '{ "sneaked": true }\n', signal), ControlFileError);
      assert.equal(await readFile(join(root, '.vscode', 'settings.json'), 'utf8'), '{ "named": true }\n');
      await assert.rejects(changes.delete('.git/config', signal), ProtectedFileError);
    });

    test('a protected file is refused by its own name and where a link leads', async () => {
      await symlink('.env', join(root, 'innocent.txt'));
      const files = new NodeWorkspaceFiles(root, { procFd });
      await assert.rejects(files.readText('.env', signal), ProtectedFileError);
      await assert.rejects(files.readText('innocent.txt', signal), ProtectedFileError);
      await assert.rejects(new NodeFileChanges(root, { procFd }).write('innocent.txt', 'x\n', signal), ProtectedFileError);
      // The user's setting decides: without `.env*` in it, the file is an ordinary one.
      assert.equal(await new NodeWorkspaceFiles(root, { protectedFiles: () => ['*.pem'], procFd }).readText('innocent.txt', signal), 'API_KEY=secret\n');
      assert.equal(await readFile(join(root, '.env'), 'utf8'), 'API_KEY=secret\n');
    });

    test('a folder listed through a link is checked where it leads', async () => {
      await mkdir(join(root, '.git'));
      await writeFile(join(root, '.git', 'config'), '[core]\n');
      await symlink('.git', join(root, 'docs'));
      const files = new NodeWorkspaceFiles(root, { procFd });
      await assert.rejects(files.list('docs', signal), ProtectedFileError);
      assert.deepEqual(
        (await files.list('src', signal)).map((entry) => entry.name),
        ['a.ts'],
      );
    });

    test('a write lands where the caller checked or nowhere', async () => {
      await symlink('src/a.ts', join(root, 'moving.ts'));
      const changes = new NodeFileChanges(root, { procFd });
      await assert.rejects(changes.write('moving.ts', 'x\n', signal, { realPath: 'src/other.ts' }), ChangedWhileOpenedError);
      assert.equal(await readFile(join(root, 'src', 'a.ts'), 'utf8'), 'a\n');
      await changes.write('moving.ts', 'checked\n', signal, { realPath: 'src/a.ts' });
      assert.equal(await readFile(join(root, 'src', 'a.ts'), 'utf8'), 'checked\n');
    });

    test('links out, absolute paths and ../ are refused, and no folder is made outside', async () => {
      await symlink('../outside', join(root, 'out'));
      await symlink(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
      const files = new NodeWorkspaceFiles(root, { procFd });
      const changes = new NodeFileChanges(root, { procFd });
      await assert.rejects(files.readText('out/secret.txt', signal), OutsideWorkspaceError);
      await assert.rejects(files.readText('secret-link.txt', signal), OutsideWorkspaceError);
      await assert.rejects(files.readText(join(outside, 'secret.txt'), signal), OutsideWorkspaceError);
      await assert.rejects(files.list('out', signal), OutsideWorkspaceError);
      await assert.rejects(changes.write('out/made/new.txt', 'x\n', signal), OutsideWorkspaceError);
      await assert.rejects(changes.write('../outside/new.txt', 'x\n', signal), OutsideWorkspaceError);
      await changes.delete('out/secret.txt', signal).catch(() => undefined);
      assert.equal(existsSync(join(outside, 'made')), false);
      assert.equal(await readFile(join(outside, 'secret.txt'), 'utf8'), 'outside\n');
      // Deleting the link itself removes the link, never what it points to.
      await changes.delete('secret-link.txt', signal);
      assert.equal(existsSync(join(root, 'secret-link.txt')), false);
      assert.equal(existsSync(join(outside, 'secret.txt')), true);
    });

    test('a FIFO is refused at once, not waited on', async () => {
      execFileSync('mkfifo', [join(root, 'pipe')]);
      await assert.rejects(new NodeWorkspaceFiles(root, { procFd }).readText('pipe', signal), NotAFileError);
      await assert.rejects(new NodeFileChanges(root, { procFd }).write('pipe', 'x', signal), NotAFileError);
    });

    test('a restore stages and renames within the checked folder, keeping the mode; a named control file too', async () => {
      const restore = new NodeWorkspaceRestore(root, { procFd });
      await writeFile(join(root, 'src', 'run.sh'), 'old\n', { mode: 0o755 });
      await restore.stage('src/run.sh', 'n1', 'new\n', signal);
      await restore.commit('src/run.sh', 'n1', signal);
      assert.equal(await readFile(join(root, 'src', 'run.sh'), 'utf8'), 'new\n');
      assert.equal((await lstat(join(root, 'src', 'run.sh'))).mode & 0o777, 0o755);
      await restore.stage('.vscode/settings.json', 'n2', '{ "restored": true }\n', signal);
      await restore.commit('.vscode/settings.json', 'n2', signal);
      assert.equal(await readFile(join(root, '.vscode', 'settings.json'), 'utf8'), '{ "restored": true }\n');
      await restore.stage('deep/new/file.txt', 'n3', 'made\n', signal);
      await restore.commit('deep/new/file.txt', 'n3', signal);
      assert.equal(await readFile(join(root, 'deep', 'new', 'file.txt'), 'utf8'), 'made\n');
      await restore.remove('deep/new/file.txt', signal);
      await restore.remove('deep/new/file.txt', signal);
      assert.equal(existsSync(join(root, 'deep', 'new', 'file.txt')), false);
      await assert.rejects(restore.stage('.env', 'n4', 'x', signal), ProtectedFileError);
    });
  });
