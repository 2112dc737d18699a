// Attack (round 20a): a lefthook command's `root` in a lefthook.json written on one line, or with a JSON escape.
//
// lefthook runs a command in its `root` folder (`"root": "tools/"`), and the review reads the command's line from
// there (runnerConfigs.ts lefthookRoots). It finds a root with a line pattern, `^[ \t]*"?root"?[ \t]*[:=]…$`, one key
// a line, on the raw text (a JSON config's escapes are not decoded there): a root in a lefthook.json written on one line
// (`{"pre-commit":{"commands":{"lint":{"root":"tools/","run":"eslint ."}}}}`, as a tool that writes JSON writes it) is
// not seen, and `"root": "tool\u0073/"` is read as the folder `tool\u0073/`, which is nowhere. The line `eslint .` is
// then read at the top only, and tools/eslint.config.js, which ESLint imports when lefthook runs it in tools at the next
// commit, lands unheld when a sandboxed command rewrites it. The lefthook config is the user's own (already in the
// workspace, held by name).
// Control (passes on the current code): the same command in YAML with `root: tools/` on a line of its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const CASES: { name: string; file: string; text: string; control?: boolean }[] = [
  {
    name: 'JSON root with an escape',
    file: 'lefthook.json',
    text: '{\n  "pre-commit": {\n    "commands": {\n      "lint": {\n        "root": "tool\\u0073/",\n        "run": "eslint ."\n      }\n    }\n  }\n}\n',
  },
  { name: 'one-line JSON', file: 'lefthook.json', text: '{"pre-commit":{"commands":{"lint":{"root":"tools/","run":"eslint ."}}}}\n' },
  { name: 'block YAML', file: 'lefthook.yml', text: 'pre-commit:\n  commands:\n    lint:\n      root: tools/\n      run: eslint .\n', control: true },
];

describe("attack: a lefthook command's root in one-line JSON or with a JSON escape", async () => {
  if (!(await sandboxHere())) return;
  for (const { name, file, text, control } of CASES) {
    describe(name, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        // What `lefthook install` writes (shortened): the hook runs lefthook, which reads the config.
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, '#!/bin/sh\nlefthook run "pre-commit" "$@"\n');
        await chmod(hook, 0o755);
        await writeFile(join(fixture.root, file), text);
        await mkdir(join(fixture.root, 'tools'));
        await writeFile(join(fixture.root, 'tools', 'eslint.config.js'), 'export default [];\n');
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}a rewritten tools/eslint.config.js is held`, async () => {
        const result = await fixture.run(`printf '%s\\n' "import 'node:child_process'; // PWNED-20A" 'export default [];' > tools/eslint.config.js`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, 'tools', 'eslint.config.js'), 'utf8');
        assert.ok(!now.includes('PWNED-20A'), `ESCAPED: tools/eslint.config.js, which lefthook's "${name}" command runs in tools, landed unasked`);
      });
    });
  }
});
