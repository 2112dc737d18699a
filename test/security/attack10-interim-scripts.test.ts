// Attack (round 10): package.json's scripts swapped between an interim review's look and its copy.
// When a hook runs npm (husky 9's default `.husky/pre-commit`: `npm test`), a package.json whose `scripts` changed is
// held (entryOf's scriptsChanged). An interim review (a background command's output read) judges the entry on one
// read of the file and copies it later from its own descriptor; copyChecked judges the copied bytes again for the
// hook settings (hookSettingsOf) but not for the scripts. A background command that keeps replacing package.json
// with the original and with one whose scripts.test is its own gets the latter copied in. From then on the
// workspace has the planted scripts, so the final review compares the command's package.json with it and finds
// nothing changed: it lands, and the user's next commit runs it outside the sandbox.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { type Fixture, gitOutside, makeFixture, never, sandboxHere } from './harness';

describe("attack: package.json's scripts swapped under an interim review", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const git = (args: string[]) => gitOutside(fixture, args);
  before(async () => {
    fixture = await makeFixture();
    await git(['init', '-q']);
  });
  after(async () => fixture.remove());

  test("a background command's planted scripts.test lands and runs at the next commit", async () => {
    await mkdir(join(fixture.root, '.husky'));
    await writeFile(join(fixture.root, '.husky', 'pre-commit'), 'npm test\n', { mode: 0o755 });
    await chmod(join(fixture.root, '.husky', 'pre-commit'), 0o755);
    await git(['config', 'core.hooksPath', '.husky']);
    const original = { name: 'app', version: '1.0.0', scripts: { test: 'echo tests pass' }, devDependencies: { husky: '^9.1.7' } };
    const originalText = `${JSON.stringify(original, null, 2)}\n`;
    await writeFile(join(fixture.root, 'package.json'), originalText);
    const marker = join(fixture.base, 'interim-script-ran');
    const planted = `${JSON.stringify({ ...original, scripts: { test: `echo escaped > ${marker}; echo tests pass` } }, null, 2)}\n`;
    const script =
      `import os,time\nA=${JSON.stringify(originalText)}\nB=${JSON.stringify(planted)}\n` +
      `end=time.time()+3\ni=0\nwhile time.time()<end:\n` +
      `  open(".pj.tmp","w").write(B if i%2 else A)\n  os.replace(".pj.tmp","package.json")\n  i+=1\n` +
      `open(".pj.tmp","w").write(B)\nos.replace(".pj.tmp","package.json")\n`;
    // One attempt: a background command swapping for 3 s, its output read (an interim review) all along. Each
    // attempt ends with whichever version the last interim copy took; the model simply runs it again.
    const attempt = async () => {
      const watch = (await fixture.guard.watch(never))!;
      const launch = await fixture.session.launch(
        { root: fixture.root, cwd: fixture.root, command: `/usr/bin/python3 - <<'PY'\n${script}PY\n`, protectedFiles: defaultProtectedFiles, network: false },
        never,
      );
      const child = spawnSandboxed(launch, fixture.root);
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let closed = false;
      const done = new Promise((resolve) => child.once('close', () => resolve((closed = true))));
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
      while (!closed) {
        await watch.review!(never).catch(() => undefined);
        reviews++;
      }
      await done;
      clearTimeout(timer);
      return watch.settle(never);
    };
    let output = '';
    let reviews = 0;
    let attempts = 0;
    let review: Awaited<ReturnType<typeof attempt>> | undefined;
    while (attempts < 6) {
      attempts++;
      review = await attempt();
      if ((await readFile(join(fixture.root, 'package.json'), 'utf8')) === planted) break;
    }
    const now = await readFile(join(fixture.root, 'package.json'), 'utf8');
    await writeFile(join(fixture.root, 'a.txt'), 'x\n');
    await git(['add', 'a.txt']);
    await git(['commit', '-q', '-m', 'user commit']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.ok(
      now !== planted && ran === '',
      `after ${attempts} command(s) and ${reviews} interim review(s), package.json landed with the command's scripts.test (held when unswapped: .husky/pre-commit runs \`npm test\`) ` +
        `and the user's commit ran it outside the sandbox (marker: ${JSON.stringify(ran)}); final review: ${JSON.stringify(review)}; output: ${output.slice(0, 300)}`,
    );
  });
});
