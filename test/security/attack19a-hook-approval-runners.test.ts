// Attack (round 19a): an approved agent hook that runs a project task through a task runner keeps its approval when the
// task is rewritten.
// The gateway's own hooks (Claude Code's `.claude/settings.json`, Copilot's `.github/hooks/*.json`…) run outside the
// sandbox once approved; the approval is a sha256 of the line and of the content of every workspace file it names and
// what those run in turn (hookContent.ts, NodeHookFiles, followed as the review follows a Git hook), so that a rewritten
// script asks again. `make check` covers the Makefile and `npm run lint` package.json (attack13's fix), but a task runner
// not on the review's list (deno, composer, pdm, hatch, poe) covers no file: its task file is not in the approval, and
// the task it runs can be rewritten (by the model's write_file under auto-edit, or by a sandboxed command, where it lands:
// attack19a-task-runner-files) while the hook keeps its approval and runs the new task at the next tool call, unasked.
// The same for finding 1's folders (attack19a-quoted-hook-folders): `make -C "tools" lint`, `yarn --cwd tools lint` and
// `task -d tools lint` cover no file either, so tools/Makefile, tools/package.json and tools/Taskfile.yml can change
// under the approval.
// Controls (pass on the current code): `npm run lint` with package.json, `make -C tools lint` with tools/Makefile.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HookApprovals } from '../../src/customization/common/hookApprovals';
import { hookContent } from '../../src/customization/common/hookContent';
import type { HookCommand } from '../../src/customization/common/hookConfig';
import { NodeHookFiles } from '../../src/customization/node/nodeHookFiles';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';

const never = new AbortController().signal;

const CASES: { line: string; target: string; before: string; after: string; control?: boolean }[] = [
  {
    line: 'npm run lint',
    target: 'package.json',
    before: '{"scripts":{"lint":"eslint ."}}\n',
    after: '{"scripts":{"lint":"eslint . ; echo PWNED"}}\n',
    control: true,
  },
  { line: 'deno task check', target: 'deno.json', before: '{"tasks":{"check":"deno lint"}}\n', after: '{"tasks":{"check":"deno lint; echo PWNED"}}\n' },
  {
    line: 'composer run-script lint',
    target: 'composer.json',
    before: '{"name":"a/b","scripts":{"lint":"phpcs src"}}\n',
    after: '{"name":"a/b","scripts":{"lint":"phpcs src; echo PWNED"}}\n',
  },
  {
    line: 'pdm run lint',
    target: 'pyproject.toml',
    before: '[project]\nname = "x"\n[tool.pdm.scripts]\nlint = "ruff check ."\n',
    after: '[project]\nname = "x"\n[tool.pdm.scripts]\nlint = {shell = "ruff check .; echo PWNED"}\n',
  },
  {
    line: 'hatch run lint',
    target: 'hatch.toml',
    before: '[envs.default.scripts]\nlint = "ruff check ."\n',
    after: '[envs.default.scripts]\nlint = "echo PWNED"\n',
  },
  // Finding 1's folders, in the approval: a quoted `-C` folder and the runners' own folder options.
  { line: 'make -C "tools" lint', target: 'tools/Makefile', before: 'lint:\n\techo ok\n', after: 'lint:\n\techo PWNED\n' },
  { line: 'yarn --cwd tools lint', target: 'tools/package.json', before: '{"scripts":{"lint":"eslint ."}}\n', after: '{"scripts":{"lint":"echo PWNED"}}\n' },
  {
    line: 'task -d tools lint',
    target: 'tools/Taskfile.yml',
    before: "version: '3'\ntasks:\n  lint:\n    cmds: [eslint .]\n",
    after: "version: '3'\ntasks:\n  lint:\n    cmds: [echo PWNED]\n",
  },
  { line: 'make -C tools lint', target: 'tools/Makefile', before: 'lint:\n\techo ok\n', after: 'lint:\n\techo PWNED\n', control: true },
];

describe('attack: an approved hook that runs a task through a task runner the approval does not follow', () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'gw-attack19a-hook-runners-')));
    await mkdir(join(root, 'tools'));
  });
  after(async () => rm(root, { recursive: true, force: true }));

  for (const { line, target, before: original, after: rewritten, control } of CASES) {
    test(`${control ? 'control: ' : ''}"${line}": a rewritten ${target} changes the hook's approval (it asks again)`, async () => {
      await writeFile(join(root, target), original);
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
      assert.ok(approvedAs !== undefined, 'the hook can be approved');
      await writeFile(join(root, target), rewritten);
      const nowAs = await identityNow();
      assert.notEqual(
        nowAs,
        approvedAs,
        `the hook "${line}" keeps its approval after ${target}, whose task it runs, was rewritten: its approval covers ${JSON.stringify((await approvals.contentOf([hook], never))[0].files)}`,
      );
      await rm(join(root, target));
    });
  }
});
