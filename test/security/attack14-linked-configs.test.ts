// Attack (round 14): a `.vscode` folder that is a symbolic link (`.vscode -> config/vscode`, a monorepo's shared editor
// config) is never read as VS Code's config, so what its tasks run is an ordinary file to the review.
// The program configs are found by protectedPathCache.ts's walk of the workspace (record.runners: isProgramConfigPath,
// isHeldConfigFile), which lists `.vscode` as a link and does not descend into it; the file behind it,
// `config/vscode/tasks.json`, is no program config by its path (isProgramConfigPath wants the parent `.vscode`). So
// runnerConfigs.ts never reads the tasks, and tools/build.sh, which a task runs (`runOn: folderOpen` too), is no
// program to the review. VS Code reads `.vscode/tasks.json` through the link as any program opening a file does. The
// command needs to touch neither the link nor the config (both held by name): it rewrites the script the task runs.
// (A linked `lefthook.yml -> config/lefthook.yml` is held: its target's own name is a runner config's.)
// The README promises VS Code's tasks (`.vscode/tasks.json`'s `command` and `args`) followed as a hook's are, and
// "where a link of the chain leads" held.
// Control: the same tasks.json in a plain `.vscode` folder holds the script.
// Impact: tools/build.sh lands rewritten and runs outside the sandbox when the user runs the task or opens the folder.
import assert from 'node:assert/strict';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const TASKS = `${JSON.stringify({ version: '2.0.0', tasks: [{ label: 'build', type: 'shell', command: 'sh tools/build.sh', runOptions: { runOn: 'folderOpen' } }] })}\n`;
const FILES = ['tools/build.sh'];

describe('attack: a linked .vscode folder', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  const plant = async (fixture: Fixture, linked: boolean) => {
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await mkdir(join(fixture.root, 'config', 'vscode'), { recursive: true });
    if (linked) {
      await writeFile(join(fixture.root, 'config', 'vscode', 'tasks.json'), TASKS);
      await symlink('config/vscode', join(fixture.root, '.vscode'));
    } else {
      await mkdir(join(fixture.root, '.vscode'), { recursive: true });
      await writeFile(join(fixture.root, '.vscode', 'tasks.json'), TASKS);
    }
    for (const file of FILES) await writeFile(join(fixture.root, file), 'echo ok\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, false);
    await plant(attack, true);
  });
  after(async () => {
    await control.remove();
    await attack.remove();
  });
  const rewrite = FILES.map((file) => `echo 'id > /tmp/owned' > ${file}`).join(' && ');
  const landed = async (fixture: Fixture) =>
    Object.fromEntries(await Promise.all(FILES.map(async (file) => [file, await readFile(join(fixture.root, file), 'utf8')])));
  const original = Object.fromEntries(FILES.map((file) => [file, 'echo ok\n']));

  test('control: a plain .vscode/tasks.json holds tools/build.sh', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(control), original, `control: ${JSON.stringify(result.review)}`);
  });

  test('a linked .vscode still holds tools/build.sh', async () => {
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(attack), original, `what the linked .vscode's task runs landed rewritten; review: ${JSON.stringify(result.review)}`);
  });
});
