// Attack (round 19a): the working folder of an agent's or editor's entry (a Copilot hook's `cwd`, a VS Code task's
// `options.cwd` or npm task `path`, an MCP server's `cwd`), where make and npm read their task files.
//
// GitHub Copilot's hooks (`.github/hooks/*.json`, run by Copilot CLI and VS Code's agent at each event, unasked) are
// `{"type": "command", "bash": "…", "cwd": "tools"}`: the line runs in `cwd`. The gateway's own approval of such a hook
// reads its words from that folder (hookContent covers tools/Makefile and tools/run-lint), but the sandbox review reads
// the command lines of `.github/hooks` "from the workspace's top or the folder above the config's own"
// (runnerConfigs.ts places) and never from the entry's `cwd`. So for `make lint` or `npm run lint` with `cwd: "tools"`,
// tools/Makefile's recipe and tools/package.json's script are not followed, and what they run (tools/run-lint) is an
// ordinary file: a sandboxed command rewrites it, it lands, and Copilot runs it at its next tool call.
// The same holds for VS Code's own configs, which the review reads as command lines too: a `.vscode/tasks.json` task
// with `options.cwd` (run at folder open with `runOn: folderOpen`), an npm task's `path`, and an MCP server's `cwd` in
// `.vscode/mcp.json`.
// Controls (pass on the current code): the same lines spelled `make -C tools lint` / `npm --prefix tools run lint`
// without a working folder, held.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const copilot = (entry: { bash: string; cwd?: string }) =>
  JSON.stringify({ version: 1, hooks: { postToolUse: [{ type: 'command', ...entry, timeoutSec: 60 }] } }, null, 2);
const task = (entry: object) => JSON.stringify({ version: '2.0.0', tasks: [{ label: 'lint', ...entry, runOptions: { runOn: 'folderOpen' } }] }, null, 2);

/** [label, config path, its text, control] */
const CASES: [string, string, string, boolean][] = [
  ['Copilot hook: make lint, cwd tools', '.github/hooks/lint.json', copilot({ bash: 'make lint', cwd: 'tools' }), false],
  ['Copilot hook: npm run lint, cwd tools', '.github/hooks/lint.json', copilot({ bash: 'npm run lint', cwd: 'tools' }), false],
  // VS Code runs a folderOpen task when the folder opens (once automatic tasks are allowed), in its options.cwd; an npm
  // task runs `npm run <script>` in its `path`; an MCP server of .vscode/mcp.json starts in its `cwd`.
  [
    'VS Code task: make lint, options.cwd tools',
    '.vscode/tasks.json',
    task({ type: 'shell', command: 'make lint', options: { cwd: '${workspaceFolder}/tools' } }),
    false,
  ],
  ['VS Code npm task: script lint, path tools', '.vscode/tasks.json', task({ type: 'npm', script: 'lint', path: 'tools' }), false],
  [
    'VS Code MCP server: sh run-lint, cwd tools',
    '.vscode/mcp.json',
    JSON.stringify({ servers: { lint: { type: 'stdio', command: 'sh', args: ['run-lint'], cwd: '${workspaceFolder}/tools' } } }, null, 2),
    false,
  ],
  // lefthook's `root` ("change the CWD for the command you execute"): `make lint` runs tools/Makefile at the next commit.
  ['lefthook command: make lint, root tools', 'lefthook.yml', 'pre-commit:\n  commands:\n    lint:\n      root: tools\n      run: make lint\n', false],
  ['Copilot hook: make -C tools lint', '.github/hooks/lint.json', copilot({ bash: 'make -C tools lint' }), true],
  ['Copilot hook: npm --prefix tools run lint', '.github/hooks/lint.json', copilot({ bash: 'npm --prefix tools run lint' }), true],
  ['VS Code task: make -C tools lint', '.vscode/tasks.json', task({ type: 'shell', command: 'make -C tools lint' }), true],
];

describe("attack: a Copilot hook's cwd is not where the review reads its line", async () => {
  if (!(await sandboxHere())) return;
  for (const [label, config, text, control] of CASES) {
    describe(`${control ? 'control: ' : ''}${label}`, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        await mkdir(join(fixture.root, config, '..'), { recursive: true });
        await writeFile(join(fixture.root, config), text);
        await mkdir(join(fixture.root, 'tools'));
        await writeFile(join(fixture.root, 'tools', 'Makefile'), 'lint:\n\t@./run-lint\n');
        await writeFile(join(fixture.root, 'tools', 'package.json'), JSON.stringify({ name: 'tools', scripts: { lint: './run-lint' } }, null, 2));
        await writeFile(join(fixture.root, 'tools', 'run-lint'), '#!/bin/sh\necho lint ok\n', { mode: 0o755 });
      });
      after(async () => fixture.remove());

      test('a rewritten tools/run-lint (what the hook runs) is held', async () => {
        const result = await fixture.run(`echo 'echo PWNED-19A' >> tools/run-lint`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, 'tools', 'run-lint'), 'utf8');
        assert.ok(
          !now.includes('PWNED-19A'),
          `ESCAPED: tools/run-lint, which ${config}'s ${label} runs, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
