// A covered protected file whose folder the user renames while a sandboxed command runs (attack round 19b, attempt 2).
// The cover is a mount at the file's path inside the sandbox; the workspace below the command's layer is read live, so
// after `config` → `settings` the file is at a path nobody covers. Node's recursive fs.watch reports
// `settings/.env` (a protected name appears: the guard stops the command); VS Code's watcher reports the folder by
// its new name and the old name as deleted, not the files in it. Here the watcher reports as VS Code's does: the
// guard must stop the command from the deletion of the folder that held a covered file.
import assert from 'node:assert/strict';
import { watch as watchFolder } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { ControlPathWatcher } from '../../src/terminal/common/commandPorts';
import { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const SECRET = 'API_TOKEN=sk-live-0123456789abcdef';

/** As VS Code's watcher reports a renamed folder: its new name (created) and its old one (deleted), nothing inside. */
const folderLevelWatcher: ControlPathWatcher = {
  watch(root, _folders, onPath, onGone) {
    const watcher = watchFolder(root, (_event, name) => {
      if (!name) return;
      const path = relative(root, join(root, name.toString()));
      if (existsSync(join(root, path))) onPath(path);
      else onGone?.(path);
    });
    return { dispose: () => watcher.close() };
  },
};

describe('a covered protected file whose folder is renamed while a command runs', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let run: (command: string) => Promise<{ output: string }>;

  before(async () => {
    fixture = await makeFixture();
    const { root, session, sandbox, base, home } = fixture;
    await mkdir(join(root, 'config'), { recursive: true });
    await writeFile(join(root, 'config', '.env'), `${SECRET}\n`);
    const guard = new NodeControlGuard({
      root,
      quarantineFolder: join(base, 'changes-renamed'),
      layers: sandbox.layersFor('test'),
      protectedFiles: () => defaultProtectedFiles,
      willSandbox: () => true,
      home,
      watcher: folderLevelWatcher,
    });
    const runner = new NodeCommandRunner(root, {
      sandbox: { launch: (line, cwd) => session.launch({ root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: false }, never) },
    });
    run = async (command) => {
      const watch = await guard.watch(never);
      assert.ok(watch);
      const result = await runner
        .run(command, '.', 30_000, AbortSignal.any([never, watch.tripped]))
        .catch((error: unknown) => ({ output: `[stopped] ${(error as Error).message}` }));
      await watch.settle(never);
      return result;
    };
  });
  after(async () => fixture.remove());

  test('control: the covered file reads empty where it is covered', async () => {
    const result = await run('echo "[read] $(cat config/.env 2>&1)"');
    assert.doesNotMatch(result.output, /sk-live/, result.output);
  });

  test('the command is stopped before it reads the file under the folder’s new name', async () => {
    setTimeout(() => void rename(join(fixture.root, 'config'), join(fixture.root, 'settings')), 1_000);
    const result = await run('for i in $(seq 100); do [ -e settings ] && break; sleep 0.1; done; sleep 2; echo "[read] $(cat settings/.env 2>&1)"');
    assert.doesNotMatch(result.output, /sk-live/, `the command read the renamed folder's .env: ${result.output}`);
    assert.match(result.output, /\[stopped\] a protected file was moved or removed while the command ran/, result.output);
  });
});
