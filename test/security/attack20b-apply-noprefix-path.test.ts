// Attack (round 20b): Apply to Workspace writes a change at another path than the one that was judged, when Git's
// diff leaves out its a/ b/ prefixes (`diff.noprefix = true`: a common setting of one's own ~/.gitconfig, or of the
// repository's .git/config, which the session's worktree shares).
// README (Security, "What a command changed is reviewed before it lands"): a session in a worktree of its own has its
// changes judged against the workspace folder when you Apply to Workspace, "which asks before writing what they would
// hold"; a program a hook runs that the runners' table does not know holds "the files at the top of where it runs
// that are named after it" (`eslint` → `eslint.config.mjs`). gitWorktrees.ts apply judges the paths
// `git diff --raw -z` lists (the worktree's own review and heldInFolder both see `x/eslint.config.mjs`: an ordinary
// file, nothing runs it), then writes `git diff --cached --binary` (porcelain: it honours diff.noprefix) into a patch
// and runs `git apply` in the folder, which strips one leading component of each path (-p1). The patch says
// `+++ x/eslint.config.mjs`, so Git writes `eslint.config.mjs` at the top of the workspace folder, where the
// repository's pre-commit hook (`eslint .`) loads it: the sandboxed command's JavaScript runs with the user's
// rights at the next commit. Nothing asked.
// Control: the session writing `eslint.config.mjs` at the top itself is held (nothing written to the folder).
// Fix: make the patch independent of the user's diff config (`--src-prefix=a/ --dst-prefix=b/`, or `--no-prefix`
// with `git apply -p0`; also `--no-ext-diff --no-textconv --no-color`), and check the patch's own paths against the
// judged ones before `git apply`.
import assert from 'node:assert/strict';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeGitWorktrees } from '../../src/agent/node/gitWorktrees';
import type { SessionWorktree } from '../../src/sessionModel/common';
import { makeFixture, never, runOutside, sandboxHere, type Fixture } from './harness';

const SESSION = 'swtapplynoprefix';

describe('attack: under diff.noprefix Apply to Workspace writes a change one folder up from where it was judged', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let main: string;
  let worktree: SessionWorktree;
  let marker: string;
  const gitIn = (folder: string, args: string[]) =>
    runOutside('git', ['-C', folder, '-c', 'user.name=u', '-c', 'user.email=u@x', ...args], {
      env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  const config = () => `import fs from "node:fs"; fs.writeFileSync("${marker}", "ran outside");\\nexport default [];\\n`;
  const topConfig = () => readFile(join(main, 'eslint.config.mjs'), 'utf8').catch(() => undefined);

  before(async () => {
    fixture = await makeFixture({}, { root: join('.app.gateway-worktrees', SESSION), tempFolder: '/var/tmp', windowFolders: ['app'] });
    main = join(fixture.base, 'app');
    marker = join(fixture.base, 'eslint-config-ran');
    await mkdir(join(main, 'src'), { recursive: true });
    await writeFile(join(main, 'src', 'index.js'), 'console.log(1);\n');
    await writeFile(join(main, 'README'), 'hello\n');
    assert.equal((await gitIn(main, ['init', '-q', '-b', 'main'])).code, 0);
    assert.equal((await gitIn(main, ['add', '.'])).code, 0);
    assert.equal((await gitIn(main, ['commit', '-q', '-m', 'init'])).code, 0);
    // The user's own setting: diffs without a/ b/ prefixes.
    assert.equal((await gitIn(main, ['config', 'diff.noprefix', 'true'])).code, 0);
    // The repository's pre-commit hook lints with ESLint, which loads eslint.config.mjs at the top when there is one.
    await writeFile(join(main, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\neslint .\n', { mode: 0o755 });
    const made = await new NodeGitWorktrees().create({ repoRoot: main, sessionId: SESSION, linkedFolders: [], signal: never });
    assert.equal(made.worktree.path, fixture.root, 'the fixture works in the worktree the extension made');
    worktree = made.worktree;
  });
  after(async () => {
    await fixture?.remove();
  });

  test('control: the session writing eslint.config.mjs at the top itself is held', async () => {
    const result = await fixture.run(`printf '${config()}' > eslint.config.mjs`);
    assert.equal(result.exitCode, 0, result.output);
    const heldInWorktree = result.review.moved.some((entry) => entry.path === 'eslint.config.mjs' && entry.kept);
    const applied = await new NodeGitWorktrees().apply(worktree, never);
    const heldByApply = !applied.ok && (applied.held?.some((entry) => entry.path === 'eslint.config.mjs') ?? false);
    assert.ok(heldInWorktree || heldByApply, `control: not held: ${JSON.stringify(result.review)} ${JSON.stringify(applied)}`);
    assert.equal(await topConfig(), undefined, 'control: eslint.config.mjs was written into the workspace folder');
    if (!heldInWorktree) assert.equal((await fixture.run('rm -f eslint.config.mjs')).exitCode, 0);
  });

  test('a change judged at x/eslint.config.mjs is not written to the top of the workspace folder', async () => {
    const result = await fixture.run(`mkdir -p x && printf '${config()}' > x/eslint.config.mjs`);
    assert.equal(result.exitCode, 0, result.output);
    const applied = await new NodeGitWorktrees().apply(worktree, never);
    const written = await topConfig();
    // The user's next commit: the pre-commit hook's `eslint .` loads the top config (imported as ESLint does).
    if (written !== undefined) await runOutside('node', [join(main, 'eslint.config.mjs')]);
    const ran = await access(marker).then(
      () => true,
      () => false,
    );
    assert.ok(
      written === undefined && !ran,
      `the sandboxed command's x/eslint.config.mjs (its review: ${JSON.stringify(result.review.moved)}) was judged by ` +
        `Apply as that path (ok: ${String(applied.ok)}, files ${JSON.stringify(applied.files)}, held ` +
        `${JSON.stringify(applied.ok ? (applied.left ?? []) : (applied.held ?? []))}) and written by git apply as eslint.config.mjs at the top of the ` +
        `workspace folder, which its pre-commit hook's eslint loads: ran outside the sandbox: ${String(ran)}\n${String(written)}`,
    );
  });
});
