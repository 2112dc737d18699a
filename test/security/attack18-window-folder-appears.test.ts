// Attack (round 18): a protected file that appears in another folder of the window while a sandboxed command runs is
// read by it, unstopped.
// README (Security): "The protected files covered are those of every folder of the window, not only the session's
// own: a session in a worktree of its own cannot read those of the folder it was made from, which sits beside the
// worktree (`../../app/.env`) … (each folder looked at as the session's own is …)"; and "A protected file that appears
// in the workspace while a command runs (you save `.env`) stops the command, since it sees the workspace as it is";
// what it does not protect: such a file "is seen by it until the watcher stops it (milliseconds)".
// The other folders' protected files are covered by what a look finds at the launch (bubblewrap.ts protectedIn), but the
// watch that stops a command when a protected file appears is of the session's root only (controlGuard.ts
// ReviewedCommand: `watcher.watch(parts.root, …)`; vscodeControlWatcher watches that one folder). A worktree session's
// long command (a dev server, a watch build, `sleep` in a loop) sees the folder it was made from live, read-only: when
// the user saves `app/.env` there — as they keep working in the folder they opened — the command reads it, for as long
// as it runs.
// Control: the same `.env` saved in the session's own root stops the command before it reads it.
import assert from 'node:assert/strict';
import { watch as watchFolder } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import type { ControlPathWatcher } from '../../src/terminal/common/commandPorts';
import { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

const SECRET = 'API_TOKEN=sk-live-0123456789abcdef';

/** As vscodeControlWatcher: a recursive watch of the folder it is given, reporting paths relative to it. */
const recursiveWatcher: ControlPathWatcher = {
  watch(root, _folders, onPath) {
    const watcher = watchFolder(root, { recursive: true }, (_event, name) => {
      if (name) onPath(relative(root, join(root, name.toString())));
    });
    return { dispose: () => watcher.close() };
  },
};

describe('attack: a protected file saved in another folder of the window while a command runs', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture | undefined;
  let main: string;
  let run: (command: string) => Promise<{ output: string }>;

  beforeEach(async () => {
    await fixture?.remove();
    // /var/tmp: outside the home folder, as /workspaces/app or /srv/app; the window has `app` open (the worktree
    // session's own folder sits beside it, as the extension makes it).
    fixture = await makeFixture({}, { root: join('.app.gateway-worktrees', 'session'), tempFolder: '/var/tmp', windowFolders: ['app'] });
    main = join(fixture.base, 'app');
    await mkdir(main, { recursive: true });
    await writeFile(join(main, 'README'), 'hello\n');
    const { root, session, sandbox, base, home } = fixture;
    // The guard as the extension makes it, with the editor's watcher (VS Code's, here a recursive fs.watch).
    const guard = new NodeControlGuard({
      root,
      quarantineFolder: join(base, 'changes-watched'),
      layers: sandbox.layersFor('test'),
      protectedFiles: () => defaultProtectedFiles,
      willSandbox: () => true,
      home,
      watcher: recursiveWatcher,
    });
    const runner = new NodeCommandRunner(root, {
      sandbox: {
        launch: (line, cwd) => session.launch({ root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: false, alsoCovered: [main] }, never),
      },
    });
    run = async (command) => {
      const watch = await guard.watch(never);
      assert.ok(watch);
      // As run_command: the command's signal is tripped by the guard.
      const result = await runner
        .run(command, '.', 30_000, AbortSignal.any([never, watch.tripped]))
        .catch((error: unknown) => ({ output: `[stopped] ${(error as Error).message}` }));
      await watch.settle(never);
      return result;
    };
  });
  after(async () => fixture?.remove());

  /** A long command that waits for `file`, then (two seconds on: the watcher's milliseconds are long past) reads it. */
  const waitingFor = (file: string) =>
    `for i in $(seq 100); do [ -e ${file} ] && break; sleep 0.1; done; sleep 2; echo "[read] $(cat ${file} 2>&1)"; echo "[end]"`;

  const saveLater = (path: string) => setTimeout(() => void writeFile(path, `${SECRET}\n`), 1_000);

  test("control: a .env saved in the session's own root stops the command", async () => {
    saveLater(join(fixture!.root, '.env'));
    const result = await run(waitingFor('.env'));
    assert.doesNotMatch(result.output, /sk-live/, `control: the command read the root's new .env: ${result.output}`);
    assert.match(result.output, /\[stopped\] a protected file appeared/, result.output);
  });

  test('a .env saved in the folder the worktree was made from stops the command (or is covered)', async () => {
    saveLater(join(main, '.env'));
    const result = await run(waitingFor('../../app/.env'));
    assert.doesNotMatch(
      result.output,
      /sk-live/,
      `a sandboxed command of the worktree session read the .env the user saved in the window's other folder: ${result.output}`,
    );
  });
});
