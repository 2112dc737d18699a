// The auto mode's sandbox, the pure parts: bwrap's arguments, the environment's allow-list, what the model is
// told, and the probe where no sandbox works. The sandbox attacked for real is in test/security/ (run as an
// ordinary user by npm run test:security).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, test } from 'node:test';
import { bubblewrapArguments, sandboxNote, seccompFd, type SandboxSpec } from '../../../src/terminal/common/sandbox';
import { isAllowedName, sandboxEnvironment } from '../../../src/terminal/common/sandboxEnvironment';
import { BubblewrapSandbox } from '../../../src/terminal/node/bubblewrap';
import { runtimeFolders, shellOutside } from '../../../src/terminal/node/sandboxFolders';

const signal = new AbortController().signal;

describe('bubblewrapArguments', () => {
  const spec: SandboxSpec = {
    workspace: '/home/u/w',
    tempDir: '/tmp/gateway-agent-s1-abc',
    cwd: '/home/u/w/src',
    home: '/home/u',
    toolchains: ['/home/u/.cargo/bin'],
    emptied: ['/run'],
    kept: ['/run/systemd/resolve/stub-resolv.conf'],
    hidden: [
      { path: '/home/u/.ssh', directory: true },
      { path: '/home/u/w/.env', directory: false },
    ],
    readOnly: ['/home/u/w/.git'],
    network: false,
    disableUserns: true,
  };

  test('new namespaces and session, seccomp on fd 3; then read-only root, private /tmp, empty home and /run, the workspace, covers', () => {
    assert.deepEqual(bubblewrapArguments(spec), [
      ...['--unshare-all', '--unshare-user', '--disable-userns', '--new-session', '--die-with-parent', '--as-pid-1', '--cap-drop', 'ALL', '--seccomp', '3'],
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'],
      ...['--bind', '/tmp/gateway-agent-s1-abc', '/tmp'],
      ...['--tmpfs', '/home/u', '--ro-bind', '/home/u/.cargo/bin', '/home/u/.cargo/bin'],
      ...['--tmpfs', '/run', '--ro-bind', '/run/systemd/resolve/stub-resolv.conf', '/run/systemd/resolve/stub-resolv.conf'],
      ...['--bind', '/home/u/w', '/home/u/w'],
      ...['--ro-bind', '/home/u/w/.git', '/home/u/w/.git'],
      ...['--tmpfs', '/home/u/.ssh', '--remount-ro', '/home/u/.ssh'],
      ...['--ro-bind', '/dev/null', '/home/u/w/.env'],
      ...['--chdir', '/home/u/w/src', '--'],
    ]);
    assert.equal(seccompFd, 3);
  });

  test('with a scratch size (bwrap 0.8+): /dev read-only, /dev/shm and each emptied folder a tmpfs of that size', () => {
    const args = bubblewrapArguments({ ...spec, scratchBytes: 1024 });
    assert.deepEqual(args.slice(args.indexOf('--dev'), args.indexOf('--proc') + 8), [
      ...['--dev', '/dev', '--proc', '/proc', '--remount-ro', '/dev', '--size', '1024', '--tmpfs', '/dev/shm'],
    ]);
    assert.deepEqual(args.slice(args.indexOf('/home/u') - 3, args.indexOf('/home/u') + 1), ['--size', '1024', '--tmpfs', '/home/u']);
    assert.deepEqual(args.slice(args.indexOf('/run') - 3, args.indexOf('/run') + 1), ['--size', '1024', '--tmpfs', '/run']);
    // The covers of hidden folders are read-only: no size needed.
    assert.deepEqual(args.slice(args.indexOf('/home/u/.ssh') - 1, args.indexOf('/home/u/.ssh') + 1), ['--tmpfs', '/home/u/.ssh']);
  });

  test('the network is shared only when the user allows it; --disable-userns only where bwrap has it', () => {
    const off = bubblewrapArguments(spec);
    assert.ok(off.includes('--unshare-all') && !off.includes('--share-net'));
    const on = bubblewrapArguments({ ...spec, network: true, disableUserns: false });
    assert.deepEqual(on.slice(0, 3), ['--unshare-all', '--unshare-user', '--share-net']);
    assert.ok(!on.includes('--disable-userns'));
  });

  test('a workspace that holds the home folder is bound first, so the home folder is still emptied over it', () => {
    const args = bubblewrapArguments({ ...spec, workspace: '/home', cwd: '/home', hidden: [], readOnly: [] });
    const workspaceBind = args.indexOf('/home', args.indexOf('--bind', args.indexOf('/tmp')) + 1);
    assert.ok(workspaceBind > 0);
    assert.ok(args.indexOf('/home/u') > workspaceBind, args.join(' '));
    assert.ok(args.indexOf('/run') < workspaceBind, 'what is not inside the workspace is emptied before it');
  });

  test("a user without a home folder (a service account's /nonexistent) gets no mount over it: bwrap could not make one", () => {
    const args = bubblewrapArguments({ ...spec, home: undefined });
    assert.ok(!args.includes('/home/u'), args.join(' '));
    assert.ok(args.includes('/run'), 'the runtime folders are still emptied');
  });

  test('the home folder opened as the workspace stays the workspace (its secrets are still covered)', () => {
    const args = bubblewrapArguments({ ...spec, workspace: '/home/u', cwd: '/home/u' });
    assert.ok(args.indexOf('--tmpfs') < args.lastIndexOf('/home/u'));
    assert.deepEqual(args.slice(args.indexOf('/home/u/.ssh') - 1, args.indexOf('/home/u/.ssh') + 3), [
      '--tmpfs',
      '/home/u/.ssh',
      '--remount-ro',
      '/home/u/.ssh',
    ]);
  });

  test('the note tells the model what the sandbox does, and whether it has the network', () => {
    assert.match(sandboxNote(false), /there is no network/);
    assert.doesNotMatch(sandboxNote(true), /no network/);
    for (const note of [sandboxNote(false), sandboxNote(true)]) {
      assert.match(note, /home folder is an empty scratch folder \(thrown away after each command\)/);
      assert.match(note, /Unix sockets/);
      assert.match(note, /stopped when it ends/);
      assert.match(note, /\/tmp \(\$TMPDIR, private to this agent session\)/);
    }
  });
});

describe('sandboxEnvironment', () => {
  const host = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/host',
    USER: 'u',
    LANG: 'de_DE.UTF-8',
    LC_ALL: 'C',
    TERM: 'xterm',
    JAVA_HOME: '/usr/lib/jvm/21',
    VIRTUAL_ENV: '/w/.venv',
    GOPATH: '/home/u/go',
    SSH_AUTH_SOCK: '/tmp/ssh/agent',
    XDG_RUNTIME_DIR: '/run/user/1000',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
    VSCODE_IPC_HOOK: '/run/user/1000/vscode.sock',
    VSCODE_PID: '1',
    ELECTRON_RUN_AS_NODE: '1',
    NODE_OPTIONS: '--require /x.js',
    GITHUB_TOKEN: 'ghp_x',
    AWS_SECRET_ACCESS_KEY: 'x',
    PGPASSWORD: 'x',
    LC_API_KEY: 'x',
    TMPDIR: '/var/tmp',
    PAGER: 'less',
  };

  test('only the allow-list passes; HOME, SHELL, TMPDIR and the pagers are set', () => {
    assert.deepEqual(sandboxEnvironment(host, { home: '/home/u', shell: '/bin/bash' }), {
      PATH: '/usr/bin:/bin',
      USER: 'u',
      LANG: 'de_DE.UTF-8',
      LC_ALL: 'C',
      TERM: 'xterm',
      JAVA_HOME: '/usr/lib/jvm/21',
      VIRTUAL_ENV: '/w/.venv',
      GOPATH: '/home/u/go',
      HOME: '/home/u',
      SHELL: '/bin/bash',
      TMPDIR: '/tmp',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
    });
  });

  test('a name that says it holds a credential never passes, even on the list or its prefix', () => {
    for (const name of ['LC_API_KEY', 'GITHUB_TOKEN', 'MY_SECRET', 'DB_PASSWORD', 'LC_AUTH', 'SSH_AUTH_SOCK']) assert.equal(isAllowedName(name), false, name);
    for (const name of ['PATH', 'LC_CTYPE', 'CARGO_HOME', 'NVM_DIR', 'PYENV_ROOT']) assert.equal(isAllowedName(name), true, name);
  });

  test('without a PATH the command still finds the system programs; an oversized value is dropped', () => {
    const env = sandboxEnvironment({ LANG: 'x'.repeat(40_000) }, { home: '/h', shell: '/bin/sh' });
    assert.equal(env.PATH, '/usr/local/bin:/usr/bin:/bin');
    assert.equal(env.LANG, undefined);
  });
});

describe('the sandbox probe', () => {
  test('without bubblewrap it says what to install, and the sandbox refuses to start a command', async () => {
    const missing = new BubblewrapSandbox({ bwrap: '/nonexistent/bwrap' });
    const availability = await missing.available();
    assert.equal(availability.ok, false);
    const expected =
      process.platform !== 'linux'
        ? /needs bubblewrap on Linux/
        : ['x64', 'arm64'].includes(process.arch)
          ? /bubblewrap \(bwrap\) is not installed/
          : /x86-64 and arm64/;
    assert.match(availability.ok ? '' : availability.reason, expected);
    const session = missing.forSession('s1');
    await assert.rejects(session.launch({ root: '/w', cwd: '/w', command: 'true', protectedFiles: [], network: false }, signal), expected);
    await session.dispose();
  });

  test('a bwrap that cannot create namespaces fails the probe with its message', async () => {
    // `false` stands for a bwrap that exits non-zero, as one without user namespaces does.
    const availability = await new BubblewrapSandbox({ bwrap: 'false' }).available();
    assert.equal(availability.ok, false);
    if (process.platform === 'linux') assert.match(availability.ok ? '' : availability.reason, /a sandbox cannot be made here \(exit code 1\)/);
  });
});

describe('the runtime folders emptied inside', () => {
  test('/run is emptied where it exists; $XDG_RUNTIME_DIR only outside it and /tmp; a missing one is left alone', async () => {
    const found = await runtimeFolders({ XDG_RUNTIME_DIR: '/run/user/12345' });
    assert.deepEqual(found.emptied, existsSync('/run') ? ['/run'] : []);
    assert.deepEqual((await runtimeFolders({ XDG_RUNTIME_DIR: '/nonexistent/runtime' })).emptied, found.emptied);
    assert.deepEqual((await runtimeFolders({ XDG_RUNTIME_DIR: tmpdir() })).emptied, found.emptied);
    // /etc/resolv.conf is kept only where it leads into an emptied folder (systemd-resolved's stub in /run).
    for (const kept of found.kept)
      assert.ok(
        found.emptied.some((folder) => kept.startsWith(`${folder}/`)),
        kept,
      );
  });

  test('a shell in the hidden home folder is replaced by /bin/sh', () => {
    assert.equal(shellOutside('/usr/bin/zsh', '/home/u'), '/usr/bin/zsh');
    assert.equal(shellOutside('/home/u/.nix-profile/bin/fish', '/home/u'), '/bin/sh');
    assert.equal(shellOutside(undefined, '/home/u'), '/bin/sh');
    assert.equal(shellOutside('zsh', '/home/u'), '/bin/sh');
  });
});
