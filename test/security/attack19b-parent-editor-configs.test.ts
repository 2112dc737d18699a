// Attack (round 19b): the editors' and agents' configs of the folders above the workspace are not read by the review.
// README (Security, "What a command changed is reviewed before it lands"): the command lines of VS Code's tasks
// (`.vscode/tasks.json`'s `command` and `args`), Claude Code's hooks and the other editors' and agents' configs are
// followed as a hook's are, every string value of them naming a workspace file is held, "and these configs in the
// folders above the workspace too: a monorepo opened at one package, direnv's nearest `.envrc`".
// Only the runner configs are looked for above the workspace (runnerConfigs.ts runnerConfigsAbove: isRunnerConfigName,
// `.envrc`, `.husky`, mise's, yarn's and the hook managers' configs, and `.hg`/`.sl`): a `.vscode` or `.claude` folder
// of a folder above is never read (repositoryFacts.ts: `configs: [...known.runnerConfigs, ...runnerConfigsAbove(root)]`).
// So in a monorepo whose top holds the editor's tasks and the agent's hooks (`mono/.vscode/tasks.json`:
// `sh workspace/scripts/build.sh`; `mono/.claude/settings.json`: a PostToolUse hook `sh workspace/scripts/fmt.sh`),
// a session opened at one package (`mono/workspace`, or that folder beside `mono` in a multi-root window) rewrites
// those scripts: they land as ordinary files, and run with the user's rights at the next build task (or when Claude
// Code, started at the monorepo's top, next edits a file).
// Control: the same configs in the workspace's own `.vscode` and `.claude` hold the same rewrites.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const ORIGINAL = 'echo building\n';
const tasks = (prefix: string) =>
  JSON.stringify({ version: '2.0.0', tasks: [{ label: 'build', type: 'shell', command: `sh ${prefix}scripts/build.sh`, group: 'build' }] }, null, 2);
const claude = (prefix: string) =>
  JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: `sh ${prefix}scripts/fmt.sh` }] }] } }, null, 2);

describe('attack: the editor and agent configs of the folder above the workspace', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture | undefined;

  beforeEach(async () => {
    await fixture?.remove();
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'scripts'), { recursive: true });
    await writeFile(join(fixture.root, 'scripts', 'build.sh'), ORIGINAL);
    await writeFile(join(fixture.root, 'scripts', 'fmt.sh'), ORIGINAL);
  });
  after(async () => fixture?.remove());

  /** Writes the configs into `folder`, naming the scripts with `prefix`; the command rewrites both scripts. */
  const attack = async (folder: string, prefix: string) => {
    await mkdir(join(folder, '.vscode'), { recursive: true });
    await mkdir(join(folder, '.claude'), { recursive: true });
    await writeFile(join(folder, '.vscode', 'tasks.json'), tasks(prefix));
    await writeFile(join(folder, '.claude', 'settings.json'), claude(prefix));
    const result = await fixture!.run(`echo 'echo pwned > /tmp/owned' >> scripts/build.sh; echo 'echo pwned > /tmp/owned' >> scripts/fmt.sh`);
    assert.equal(result.exitCode, 0, result.output);
    const landed = [];
    for (const name of ['build.sh', 'fmt.sh']) {
      if ((await readFile(join(fixture!.root, 'scripts', name), 'utf8')) !== ORIGINAL) landed.push(`scripts/${name}`);
    }
    return { landed, held: result.review.moved.map((entry) => entry.path) };
  };

  test("control: the workspace's own tasks and hooks hold the rewrites", async () => {
    const { landed, held } = await attack(fixture!.root, '');
    assert.deepEqual(landed, [], `control: landed ${landed.join(', ')} (held: ${held.join(', ')})`);
  });

  test("the tasks and hooks of the monorepo's top above the workspace hold them too", async () => {
    const { landed, held } = await attack(join(fixture!.root, '..'), 'workspace/');
    assert.deepEqual(
      landed,
      [],
      `the scripts the folder above's .vscode/tasks.json and .claude/settings.json run landed rewritten: ${landed.join(', ')} (held: ${held.join(', ')})`,
    );
  });
});
