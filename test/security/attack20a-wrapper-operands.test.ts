// Attack (round 20a): a program the runner table does not know, run through a wrapper that takes an operand, is
// missed by the rule that holds its own config (unknownRunners.ts unknownPrograms).
//
// The rule takes "the first word of each command (after assignments and wrappers)": it skips a wrapper's name and any
// word starting with `-`, then takes the next word as the program. A wrapper's operand that is no option is taken for
// the program instead: `timeout 60 eslint .` gives the program `60` (the duration timeout always takes), `nice -n 10
// eslint .` gives `10` (the option's value), `find . -name '*.js' -exec eslint {} +` gives `find` (plain), so eslint's
// own config (eslint.config.js at the top of where it runs, code ESLint imports at every run) is never looked at.
// The same for a package runner's option value: `pnpm -C tools exec eslint .` gives the program `tools`, `npx --prefix
// tools eslint .` the program `tools` too (the folder is read, the program is not), so tools/eslint.config.js lands.
// A package spelled with its version (`npx eslint@9 .`, `pnpm dlx eslint@latest .`, as hooks pin a tool) fails the
// rule's name pattern and is dropped; `env -u CI eslint .` gives `CI` (env's option value), also dropped.
// `timeout 300 golangci-lint run`, `nice -n 19 eslint .` and `find … -exec` are ordinary pre-commit hook lines.
// A sandboxed command rewrites eslint.config.js, it lands unheld, and the user's next `git commit` runs it outside the
// sandbox; and an approved agent hook (.claude/settings.json) running such a line keeps its approval after the
// config it makes eslint load is rewritten (the approval follows with the same rule).
// Controls (pass on the current code): `eslint .`, `if ! eslint .; then exit 1; fi`, `cd tools && npx eslint .`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HookApprovals } from '../../src/customization/common/hookApprovals';
import { hookContent } from '../../src/customization/common/hookContent';
import type { HookCommand } from '../../src/customization/common/hookConfig';
import { NodeHookFiles } from '../../src/customization/node/nodeHookFiles';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const never = new AbortController().signal;

const LINES: [string, boolean][] = [
  ['timeout 60 eslint .', false],
  ['nice -n 10 eslint .', false],
  ["find . -name '*.js' -exec eslint {} +", false],
  ['xargs -n 1 eslint < files.txt', false],
  ['pnpm -C tools exec eslint .', false],
  ['npx --prefix tools eslint .', false],
  ['npx eslint@9 .', false],
  ['pnpm dlx eslint@latest .', false],
  ['env -u CI eslint .', false],
  ['eslint .', true],
  ['if ! eslint .; then exit 1; fi', true],
  ['cd tools && npx eslint .', true],
];

describe("attack: a program behind a wrapper's operand (timeout 60 eslint) is not met by the unknown-program rule", async () => {
  describe('the approval of an agent hook (.claude/settings.json) running the line', () => {
    let root: string;
    before(async () => {
      root = await realpath(await mkdtemp(join(tmpdir(), 'gw-attack20a-wrap-')));
      await mkdir(join(root, 'tools'));
    });
    after(async () => rm(root, { recursive: true, force: true }));
    for (const [line, control] of LINES) {
      const config = line.includes('tools') ? 'tools/eslint.config.js' : 'eslint.config.js';
      test(`${control ? 'control: ' : ''}"${line}": a rewritten ${config} asks again`, async () => {
        await writeFile(join(root, config), 'export default [];\n');
        const hook: HookCommand = { event: 'postToolUse', format: 'claude', command: line, cwd: '.', timeoutMs: 30_000, source: '.claude/settings.json' };
        const files = new NodeHookFiles({ root, home: undefined, protectedFiles: () => defaultProtectedFiles });
        const approvals = new HookApprovals(
          { get: () => undefined, update: async () => undefined },
          async () => true,
          (text) => createHash('sha256').update(text).digest('hex'),
          async (hooks, signal) => Promise.all(hooks.map((each) => hookContent(each, files, signal))),
        );
        const identityNow = async () => approvals.identity(hook, (await approvals.contentOf([hook], never))[0]);
        const approvedAs = await identityNow();
        await writeFile(join(root, config), "import 'node:child_process';\nexport default [];\n// PWNED-20A\n");
        assert.notEqual(
          await identityNow(),
          approvedAs,
          `the hook "${line}" keeps its approval after ${config}, which eslint loads, was rewritten: its approval covers ${JSON.stringify((await approvals.contentOf([hook], never))[0].files)}`,
        );
      });
    }
  });

  if (!(await sandboxHere())) return;
  for (const [line, control] of LINES) {
    describe(line, () => {
      let fixture: Fixture;
      // Where eslint runs: the folder a runner's option or a cd gives.
      const config = line.includes('tools') ? 'tools/eslint.config.js' : 'eslint.config.js';
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, `#!/bin/sh\nset -e\n${line}\n`);
        await chmod(hook, 0o755);
        await mkdir(join(fixture.root, 'tools'));
        await writeFile(join(fixture.root, config), 'export default [];\n');
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}a rewritten ${config} is held`, async () => {
        const result = await fixture.run(
          `printf '%s\\n' "import { execSync } from 'node:child_process';" "execSync('echo PWNED-20A > /tmp/pwned');" 'export default [];' > ${config}`,
        );
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, config), 'utf8');
        assert.ok(
          !now.includes('PWNED-20A'),
          `ESCAPED: ${config}, which the pre-commit hook's "${line}" makes eslint load, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
