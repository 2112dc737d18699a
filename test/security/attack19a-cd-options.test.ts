// Attack (round 19a): `cd -P folder`, `cd -- folder`, `cd -L folder` and a quoted `cd "folder"` before a hook's program.
//
// The review and the hook approval read a hook's `cd`/`pushd` so that `cd scripts && ./check` names scripts/check
// (hookPrograms.ts mentionedBy: `(?:cd|pushd|-C|--directory=?|--prefix=?)[ \t]*([A-Za-z0-9_./-]{1,200})`). That
// pattern takes the first word after `cd`, so for `cd -P tools` (resolve links: the form `cd -P -- "$(dirname "$0")"`
// idioms and many hook scripts use) or `cd -- tools` (end of options) the folder it records is `-P` or `--`, and
// `tools` is never a place the hook's words are read from; a quoted folder, `cd "tools"` or `cd 'tools'`, does not match
// the pattern's characters at all. bash's cd takes -L, -P, -e, -@ and `--` before the folder.
// So `cd -P tools && ./check`:
//  1. as a Git hook (.git/hooks/pre-commit): a sandboxed command rewrites tools/check, it lands unheld, and the next
//     `git commit` runs it outside the sandbox;
//  2. as an approved agent hook (.claude/settings.json): its approval covers no file, so a rewritten tools/check keeps
//     the approval and runs at the next tool call, unasked.
// (A program name with an extension, `check.sh`, is held anyway by the name rule; an extension-less `./check`, as
// `sh lint` → `./lint` in the README, is only found through the folder.)
// Control (passes on the current code): `cd tools && ./check`.
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
  ['cd -P tools && ./check', false],
  ['cd -- tools && ./check', false],
  ['cd -L tools && ./check', false],
  ['cd "tools" && ./check', false],
  ["cd 'tools' && ./check", false],
  ['cd tools && ./check', true],
];

describe("attack: a hook's `cd -P tools` / `cd -- tools` is not read as a folder", async () => {
  describe('the approval of an agent hook', () => {
    let root: string;
    before(async () => {
      root = await realpath(await mkdtemp(join(tmpdir(), 'gw-attack19a-cd-')));
      await mkdir(join(root, 'tools'));
    });
    after(async () => rm(root, { recursive: true, force: true }));

    for (const [line, control] of LINES) {
      test(`${control ? 'control: ' : ''}"${line}": a rewritten tools/check asks again`, async () => {
        // What bash does with the line: it runs tools/check.
        await writeFile(join(root, 'tools', 'check'), '#!/bin/sh\necho checked\n', { mode: 0o755 });
        assert.equal(execFileSync('bash', ['-c', line], { cwd: root }).toString(), 'checked\n');
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
        await writeFile(join(root, 'tools', 'check'), '#!/bin/sh\necho PWNED-19A\n', { mode: 0o755 });
        assert.notEqual(
          await identityNow(),
          approvedAs,
          `the hook "${line}" keeps its approval after tools/check, which it runs, was rewritten: its approval covers ${JSON.stringify((await approvals.contentOf([hook], never))[0].files)}`,
        );
      });
    }
  });

  describe('control: the review of a sandboxed command, with the line in .git/hooks/pre-commit (held: the approval alone misses it)', async () => {
    if (!(await sandboxHere())) return;
    for (const [line, control] of LINES) {
      describe(line, () => {
        let fixture: Fixture;
        before(async () => {
          fixture = await makeFixture();
          execFileSync('git', ['init', '-q', fixture.root]);
          const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
          await writeFile(hook, `#!/bin/sh\nset -e\n${line}\n`);
          await chmod(hook, 0o755);
          await mkdir(join(fixture.root, 'tools'));
          await writeFile(join(fixture.root, 'tools', 'check'), '#!/bin/sh\necho checked\n', { mode: 0o755 });
        });
        after(async () => fixture.remove());

        test(`${control ? 'control: ' : ''}a rewritten tools/check is held`, async () => {
          const result = await fixture.run(`printf '#!/bin/sh\\necho PWNED-19A\\n' > tools/check`);
          assert.equal(result.exitCode, 0, result.output);
          const now = await readFile(join(fixture.root, 'tools', 'check'), 'utf8');
          assert.ok(
            !now.includes('PWNED-19A'),
            `ESCAPED: tools/check, which the pre-commit hook's "${line}" runs, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
          );
        });
      });
    }
  });
});
