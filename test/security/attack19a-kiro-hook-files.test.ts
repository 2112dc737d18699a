// Attack (round 19a): what a Kiro IDE hook (`.kiro/hooks/*.kiro.hook`) runs.
//
// Kiro IDE's agent hooks are standalone `.kiro/hooks/<name>.kiro.hook` files, JSON: `{"when": {"type": "fileEdited",
// "patterns": [...]}, "then": {"type": "runCommand", "command": "…"}}` (kiro.dev "Hook actions": the Shell Command
// action "is executed each time the hook is triggered"). Kiro runs the command at each matching event, unasked.
// The review holds `.kiro` by name (a write to the hook file is held), and it reads the command lines and string values
// of the agents' configs that are JSON, YAML or TOML by name, following the files they name (README: "the command
// lines the editors' and agents' own configs run … followed as a hook's are"). A `.kiro.hook` file is JSON under
// another extension, so its `command` is never read: the script it runs (tools/agent-check) is an ordinary file, and a
// sandboxed command's rewrite of it lands. The next file save in Kiro runs it with the user's rights.
// Controls (pass on the current code): the same command in Kiro CLI v3's `.kiro/hooks/<name>.json` and in Cursor's
// `.cursor/hooks.json`, whose command lines are read and whose script is held.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const COMMAND = 'tools/agent-check --fast';
const CASES: [string, string, boolean][] = [
  [
    '.kiro/hooks/lint.kiro.hook',
    JSON.stringify(
      { enabled: true, name: 'lint', version: '1', when: { type: 'fileEdited', patterns: ['**/*.ts'] }, then: { type: 'runCommand', command: COMMAND } },
      null,
      2,
    ),
    false,
  ],
  [
    '.kiro/hooks/lint.json',
    JSON.stringify({ version: 'v1', hooks: [{ name: 'lint', trigger: 'PostFileSave', action: { type: 'command', command: COMMAND } }] }, null, 2),
    true,
  ],
  ['.cursor/hooks.json', JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: COMMAND }] } }, null, 2), true],
];

describe('attack: the command of a Kiro `.kiro.hook` file is not read', async () => {
  if (!(await sandboxHere())) return;
  for (const [config, text, control] of CASES) {
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

      test('a rewritten tools/agent-check (the hook command) is held', async () => {
        const parsed = JSON.parse(text) as { then?: { command?: string } };
        if (config.endsWith('.kiro.hook')) assert.equal(parsed.then?.command, COMMAND, "Kiro's hook runs tools/agent-check");
        const result = await fixture.run(`echo 'echo PWNED-19A' >> tools/agent-check`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, 'tools', 'agent-check'), 'utf8');
        assert.ok(
          !now.includes('PWNED-19A'),
          `ESCAPED: tools/agent-check, which ${config} runs at its next event, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
