// Attack (round 14): a hook runs `just` or `task`, and the file the tool reads is one of its other spellings
// (`Justfile`, `Taskfile.dist.yml`): the review reads only the spellings it lists, so what those recipes
// run is an ordinary file.
// hookPrograms.ts TOOL_FILES: just → `justfile`, `.justfile`; task → `taskfile.yml/.yaml`, `Taskfile.yml/.yaml`; rake →
// `rakefile`, `Rakefile`. The names are held by name (lower-cased: `Justfile` itself is held), but what is *read* for the
// recipes is `join(place, file)`, case-sensitive on Linux, for those spellings only. just finds its justfile in any
// capitalisation (`Justfile`, the common one, `JUSTFILE`); Task also reads `Taskfile.dist.yml`/`taskfile.dist.yaml`
// (rake's `Rakefile.rb` is held: textsOf tries `Rakefile` + `.rb`). Their recipes (`sh tools/check.sh`) are never followed. The README promises "the
// Makefile, justfile, Taskfile or Rakefile when a hook runs make, just, task or rake, and what they include and their
// recipes run".
// Control: a hook running `make check` with a Makefile recipe `sh tools/make.sh` holds tools/make.sh.
// Impact: tools/check.sh and tools/lint.sh land rewritten and run outside the sandbox at the next commit.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const FILES = ['tools/check.sh', 'tools/lint.sh'];

describe("attack: a runner's file under another spelling", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\nmake check || exit 1\njust check || exit 1\ntask lint || exit 1\n');
    await chmod(hook, 0o755);
    await writeFile(join(fixture.root, 'Makefile'), 'check:\n\tsh tools/make.sh\n');
    await writeFile(join(fixture.root, 'Justfile'), 'check:\n    sh tools/check.sh\n');
    await writeFile(join(fixture.root, 'Taskfile.dist.yml'), "version: '3'\ntasks:\n  lint:\n    cmds:\n      - sh tools/lint.sh\n");
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await writeFile(join(fixture.root, 'tools', 'make.sh'), 'echo ok\n');
    for (const file of FILES) await writeFile(join(fixture.root, file), 'echo ok\n');
  });
  after(async () => fixture.remove());

  test('control: tools/make.sh (the Makefile recipe of `make check`) rewritten is held', async () => {
    const result = await fixture.run(`echo 'id > /tmp/owned' > tools/make.sh`);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture.root, 'tools', 'make.sh'), 'utf8'), 'echo ok\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('the recipes of Justfile and Taskfile.dist.yml rewritten are held', async () => {
    const result = await fixture.run(FILES.map((file) => `echo 'id > /tmp/owned' > ${file}`).join(' && '));
    assert.equal(result.exitCode, 0, result.output);
    const landed = Object.fromEntries(await Promise.all(FILES.map(async (file) => [file, await readFile(join(fixture.root, file), 'utf8')])));
    assert.deepEqual(
      landed,
      Object.fromEntries(FILES.map((file) => [file, 'echo ok\n'])),
      `what just and task run landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });
});
