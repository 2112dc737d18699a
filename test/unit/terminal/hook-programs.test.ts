// What the hooks' programs read, followed from file to file (src/terminal/node/hookPrograms.ts), on real files.
// The attacks these close, run in the real sandbox, are test/security/attack10-hook-*.test.ts.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigTooLarge } from '../../../src/terminal/node/gitStructure';
import { followPrograms, mentionedBy, noneMentioned } from '../../../src/terminal/node/hookPrograms';
import { programConfigTexts } from '../../../src/terminal/node/programConfigs';

let base: string;
let root: string;
let upper: string;

before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'hook-programs-')));
  root = join(base, 'workspace');
  upper = join(base, 'upper');
  await mkdir(root);
  await mkdir(upper);
});
after(() => rm(base, { recursive: true, force: true }));

async function put(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
}

/** The workspace paths reached from a hook at `hook` (workspace-relative), and the names held anywhere. */
async function reached(folder: string, hook: string): Promise<{ paths: Set<string>; names: Set<string> }> {
  const mentioned = noneMentioned();
  mentioned.tops.add(join(root, folder));
  mentioned.programs.add(join(root, folder, hook));
  mentioned.hooks.add(join(root, folder, hook));
  const paths = new Set<string>();
  await followPrograms({ root, upper, mentioned, add: (path) => paths.add(relative(root, path)), readable: () => true });
  return { paths, names: mentioned.names };
}

describe('what a hook runs, followed', () => {
  test('the shell spellings of a path name the file: $PWD, ${PWD}, rev-parse, dirname "$0", cd first', () => {
    const mentioned = noneMentioned();
    mentionedBy(
      [
        'exec "$(git rev-parse --show-toplevel)/script/test"',
        'sh "$(dirname "$0")/../../script/lint"',
        '. "$PWD"/tools/env',
        'source_env "${PWD}/scripts/devenv"',
        'cd bin && ./check',
      ].join('\n'),
      mentioned,
      ['/w'],
    );
    for (const name of ['test', 'test.js', 'test.sh', 'lint', 'env', 'devenv', 'check', 'check.py']) assert.ok(mentioned.names.has(name), name);
    assert.ok(mentioned.programs.has('/w/tools/env'));
    assert.ok(mentioned.programs.has('/w/scripts/devenv'));
    assert.ok(mentioned.programs.has('/w/script/test'));
    assert.ok(mentioned.programs.has('/w/bin/check'));
    // A path of the machine names no workspace file.
    const machine = noneMentioned();
    mentionedBy('#!/bin/sh\nexec /usr/bin/env node\n', machine, ['/w']);
    assert.deepEqual([...machine.names], []);
  });

  test('a path a second shell reads: sh -c, bash -c, eval, a here-document, backquotes, $((…))', () => {
    const mentioned = noneMentioned();
    mentionedBy(
      [
        "sh -c 'bash tools/ch\\eck.sh'",
        "eval 'bash tools/fm\\t.sh'",
        'bash -c "bash tools/li\\\\nt.sh"',
        'out=`bash tools/ba\\\\ck.sh`',
        'n=$(( $(bash tools/ar\\ith.sh) + 1 ))',
        'bash <<EOF',
        'bash tools/ru\\\\n.sh',
        'EOF',
      ].join('\n'),
      mentioned,
      ['/w'],
    );
    for (const name of ['check', 'fmt', 'lint', 'back', 'arith', 'run']) {
      assert.ok(mentioned.programs.has(`/w/tools/${name}.sh`), name);
      assert.ok(mentioned.names.has(`${name}.sh`), name);
    }
  });

  test('what an interpreter loads: python -m a module, npx a package of node_modules', () => {
    const mentioned = noneMentioned();
    mentionedBy('python3 -m tools.lint\nnpx --no-install lint-staged\n', mentioned, ['/w']);
    for (const path of ['/w/tools/lint.py', '/w/tools/__init__.py', '/w/node_modules/lint-staged', '/w/node_modules/.bin/lint-staged', '/w/package.json']) {
      assert.ok(mentioned.programs.has(path), path);
    }
    assert.ok(mentioned.packageScripts);
  });

  test("npm test → package.json's script → the script it runs → what that script runs; make → an include and a recipe's script", async () => {
    await put(root, {
      'a/hook': 'npm test\nmake -s check\n',
      'a/package.json': JSON.stringify({ scripts: { test: 'sh scripts/check.sh' }, main: 'dist/never.js' }),
      'a/scripts/check.sh': 'node scripts/deep\n',
      'a/scripts/deep.js': 'require("./deeper.js")\n',
      'a/Makefile': 'include mk/rules.mk\ncheck:\n\tsh scripts/recipe.sh\n',
    });
    const { paths } = await reached('a', 'hook');
    for (const path of [
      'a/package.json',
      'a/scripts/check.sh',
      'a/scripts/deep',
      'a/scripts/deeper.js',
      'a/Makefile',
      'a/mk/rules.mk',
      'a/scripts/recipe.sh',
    ]) {
      assert.ok(paths.has(path), path);
    }
    // package.json is read for its scripts only: its main is no program a hook runs.
    assert.equal(paths.has('a/dist/never.js'), false);
  });

  test("the command's version is read too: a script it rewrote to run another file leads there", async () => {
    await put(root, { 'b/hook': 'sh run.sh\n', 'b/run.sh': 'echo ok\n' });
    await put(upper, { 'b/run.sh': 'sh planted/next.sh\n' });
    assert.ok((await reached('b', 'hook')).paths.has('b/planted/next.sh'));
  });

  test('past 6 files deep, what runs is not known: the whole change set waits (ConfigTooLarge)', async () => {
    const chain: Record<string, string> = { 'c/hook': 'sh s0.sh\n' };
    for (let index = 0; index < 8; index++) chain[`c/s${index}.sh`] = `sh s${index + 1}.sh\n`;
    await put(root, chain);
    await assert.rejects(reached('c', 'hook'), ConfigTooLarge);
  });

  test('a 64 KB hook of letters and slashes is read in bounded time', async () => {
    await put(root, { 'd/hook': `${'a/'.repeat(16_000)}\n${'x'.repeat(32_000)}` });
    const started = process.cpuUsage();
    await reached('d', 'hook');
    const { user, system } = process.cpuUsage(started);
    assert.ok((user + system) / 1000 < 2_000, `${(user + system) / 1000} CPU ms`);
  });

  test('a bare word that is a file where the text runs (sh lint, node check), never a folder; PATH=bin:$PATH', async () => {
    await put(root, { 'e/hook': 'sh lint\nnode check\nblack src\nPATH=tools:$PATH\n', 'e/lint': 'echo\n', 'e/check.js': '1\n', 'e/src/x.py': '' });
    await put(upper, { 'e/fresh.sh': 'echo\n' });
    await put(root, { 'e/hook2': 'bash fresh\n' });
    const { paths, names } = await reached('e', 'hook');
    for (const path of ['e/lint', 'e/check.js', 'e/tools']) assert.ok(paths.has(path), path);
    assert.equal(paths.has('e/src'), false);
    assert.ok(names.has('lint') && names.has('check.js'));
    // A file only the command made is looked up in its layer too.
    assert.ok((await reached('e', 'hook2')).paths.has('e/fresh.sh'));
  });

  test('a quoted name with a space; a braced expansion before a path; a name completed from a variable', async () => {
    await put(root, { 'f/hook': 'sh "sub/pre commit.sh"\nsh "${ROOT}/sub/check"\nsh "${0%/*}/../../sub/lint"\nfor c in a b; do sh "gen/$c.sh"; done\n' });
    const { paths } = await reached('f', 'hook');
    for (const path of ['f/sub/pre commit.sh', 'f/sub/check', 'f/sub/lint', 'f/gen']) assert.ok(paths.has(path), path);
  });

  test('where a link of the chain leads is followed and held', async () => {
    await put(root, { 'g/tools/impl.sh': 'sh g/tools/next.sh\n', 'g/tools/next.sh': 'echo\n', 'g/hook': 'sh scripts/check.sh\n' });
    await mkdir(join(root, 'g/scripts'), { recursive: true });
    await symlink('../tools/impl.sh', join(root, 'g/scripts/check.sh'));
    const { paths } = await reached('g', 'hook');
    for (const path of ['g/scripts/check.sh', 'g/tools/impl.sh']) assert.ok(paths.has(path), path);
  });

  test("a program config's command lines, and every other string value whatever its key", () => {
    const { commands, values } = programConfigTexts('{"servers":{"a":{"command":"node","args":["x.js"],"envFile":"c/mcp.env"}},"apiKeyHelper":"sh k.sh"}');
    assert.equal(commands, 'node x.js');
    assert.deepEqual(values.sort(), ['c/mcp.env', 'sh k.sh']);
  });
});
