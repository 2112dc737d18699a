// Attack (round 19a): what a JetBrains File Watcher (`.idea/watcherTasks.xml`) runs.
//
// JetBrains IDEs' File Watchers (bundled in WebStorm, PhpStorm, IntelliJ IDEA Ultimate…) are kept in the project's
// `.idea/watcherTasks.xml`: each `TaskOptions` has a `program` (and `arguments`, `workingDir`) that the IDE runs by
// itself whenever a matching file is saved or changed (`immediateSync`, `runOnExternalChanges`), in a trusted project.
// The review holds `.idea` by name (a write to watcherTasks.xml is held), but it reads the command lines and values only
// of configs that are JSON, YAML or TOML, so the program an existing watcher names ($ProjectFileDir$/tools/agent-check)
// is an ordinary file: a sandboxed command rewrites it, it lands, and the IDE runs it at the next save, unasked.
// The same holds for VS Code: a `.vscode/tasks.json` task with `runOn: folderOpen` names its script, which is followed.
// Control (passes on the current code): that VS Code task.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const WATCHERS = `<?xml version="1.0" encoding="UTF-8"?>
<project version="4">
  <component name="ProjectTasksOptions">
    <TaskOptions isEnabled="true">
      <option name="arguments" value="$FilePath$" />
      <option name="checkSyntaxErrors" value="true" />
      <option name="exitCodeBehavior" value="ERROR" />
      <option name="fileExtension" value="ts" />
      <option name="immediateSync" value="true" />
      <option name="name" value="check" />
      <option name="program" value="$ProjectFileDir$/tools/agent-check" />
      <option name="runOnExternalChanges" value="true" />
      <option name="scopeName" value="Project Files" />
      <option name="workingDir" value="$ProjectFileDir$" />
    </TaskOptions>
  </component>
</project>
`;
const TASKS = JSON.stringify(
  { version: '2.0.0', tasks: [{ label: 'check', type: 'shell', command: '${workspaceFolder}/tools/agent-check', runOptions: { runOn: 'folderOpen' } }] },
  null,
  2,
);

describe("attack: a JetBrains File Watcher's program is not followed", async () => {
  if (!(await sandboxHere())) return;
  for (const [config, text, control] of [
    ['.idea/watcherTasks.xml', WATCHERS, false],
    ['.vscode/tasks.json', TASKS, true],
  ] as const) {
    describe(`${control ? 'control: ' : ''}${config}`, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        await mkdir(join(fixture.root, config, '..'), { recursive: true });
        await writeFile(join(fixture.root, config), text);
        await mkdir(join(fixture.root, 'tools'));
        await writeFile(join(fixture.root, 'tools', 'agent-check'), '#!/bin/sh\necho checked\n', { mode: 0o755 });
      });
      after(async () => fixture.remove());

      test('a rewritten tools/agent-check (the program it runs) is held', async () => {
        const result = await fixture.run(`echo 'echo PWNED-19A' >> tools/agent-check`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, 'tools', 'agent-check'), 'utf8');
        assert.ok(
          !now.includes('PWNED-19A'),
          `ESCAPED: tools/agent-check, which ${config} runs by itself, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
