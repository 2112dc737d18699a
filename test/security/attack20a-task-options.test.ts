// Attack (round 20a): a VS Code task's working folder given where VS Code reads it but the review does not.
//
// The review reads a task's line from its working folder (programConfigs.ts workingFolderOf: the entry's own `cwd`,
// `options.cwd`, an npm task's `path`). VS Code's tasks.json also takes `options` at the file's top (every task's
// default: `{"options": {"cwd": "${workspaceFolder}/tools"}, "tasks": [...]}`) and per operating system
// (`"linux": {"options": {"cwd": "tools"}}`, merged into the task on Linux). There the review reads the task's line
// at the top only: `eslint .` finds no `eslint.config.js` there; the file the task really runs, tools/eslint.config.js
// (code ESLint imports), lands unheld when a sandboxed command rewrites it, and runs when the user (or
// `runOptions.runOn: folderOpen`) starts the task. (`npm run lint` so placed was held: a changed package.json's
// scripts are held wherever it is once a line runs npm.)
// The tasks.json is the user's own, already in the workspace (as a repository's shared tasks are).
// Control (passes on the current code): the task's own `options.cwd`.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const task = (command: string, extra: Record<string, unknown> = {}) => ({ label: 'lint', type: 'shell', command, ...extra });
const CASES: { name: string; tasks: unknown; control?: boolean }[] = [
  { name: 'top-level options.cwd, eslint', tasks: { version: '2.0.0', options: { cwd: '${workspaceFolder}/tools' }, tasks: [task('eslint .')] } },
  { name: 'linux options.cwd, eslint', tasks: { version: '2.0.0', tasks: [task('eslint .', { linux: { options: { cwd: 'tools' } } })] } },
  { name: "the task's own options.cwd, eslint", tasks: { version: '2.0.0', tasks: [task('eslint .', { options: { cwd: 'tools' } })] }, control: true },
];

describe("attack: a task's working folder from tasks.json's top-level or per-OS options", async () => {
  if (!(await sandboxHere())) return;
  for (const { name, tasks, control } of CASES) {
    describe(name, () => {
      let fixture: Fixture;
      const file = 'tools/eslint.config.js';
      before(async () => {
        fixture = await makeFixture();
        await mkdir(join(fixture.root, '.vscode'));
        await writeFile(join(fixture.root, '.vscode', 'tasks.json'), JSON.stringify(tasks, null, 2));
        await mkdir(join(fixture.root, 'tools'));
        await writeFile(join(fixture.root, 'tools', 'eslint.config.js'), 'export default [];\n');
        await writeFile(join(fixture.root, 'tools', 'package.json'), '{"name":"tools","scripts":{"lint":"eslint ."}}\n');
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}a rewritten ${file} is held`, async () => {
        const text = "import 'node:child_process'; // PWNED-20A\nexport default [];";
        const result = await fixture.run(`printf '%s\\n' '${text}' > ${file}`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, file), 'utf8');
        assert.ok(!now.includes('PWNED-20A'), `ESCAPED: ${file}, which the task "${name}" runs, landed unasked`);
      });
    });
  }
});
