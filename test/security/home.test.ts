// Issue 21, finding 7: only a fixed list of home secrets was hidden; shell history, VS Code's and
// code-server's state databases, cargo/pgpass/vault/hub/terraform tokens, other projects' .env files and the
// extension host's environment were readable. Now the home folder is an empty tmpfs with only toolchain
// folders bound back (read-only), and the environment is rebuilt from an allow-list.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

/** Files a user's home holds that no command of the agent may read (relative to the home folder). */
const secrets = [
  '.bash_history',
  '.config/Code/User/globalStorage/state.vscdb',
  '.local/share/code-server/User/globalStorage/state.vscdb',
  '.cargo/credentials.toml',
  '.pgpass',
  '.vault-token',
  '.config/hub',
  '.terraform.d/credentials.tfrc.json',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  'projects/otherproject/.env',
];

describe('the home folder and the environment (finding 7)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;

  before(async () => {
    fixture = await makeFixture({
      env: {
        ...process.env,
        GATEWAY_TEST_SECRET: 'env-secret-1',
        SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.1',
        VSCODE_IPC_HOOK: '/run/user/1000/vscode-ipc.sock',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
        XDG_RUNTIME_DIR: '/run/user/1000',
        OPENAI_API_KEY: 'env-secret-2',
        JAVA_HOME: '/usr/lib/jvm/default',
      },
    });
    for (const path of secrets) {
      await mkdir(dirname(join(fixture.home, path)), { recursive: true });
      await writeFile(join(fixture.home, path), `SECRET ${path}\n`);
    }
    await mkdir(join(fixture.home, '.cargo/bin'), { recursive: true });
    await writeFile(join(fixture.home, '.cargo/bin/tool'), '#!/bin/sh\necho TOOL RAN\n', { mode: 0o755 });
  });
  after(() => fixture.remove());

  test('the secrets can be read outside (the test would see them)', async () => {
    for (const path of secrets) assert.equal(await readFile(join(fixture.home, path), 'utf8'), `SECRET ${path}\n`);
  });

  test('inside, none of them can be read, nor listed', async () => {
    const paths = secrets.map((path) => join(fixture.home, path));
    const result = await fixture.run(
      `for f in ${paths.join(' ')}; do cat "$f" 2>/dev/null || echo "unreadable $f"; done; echo "[home] $(ls -A ~ | tr '\\n' ' ')"; grep -r SECRET ~ 2>/dev/null; echo "[end]"`,
    );
    assert.doesNotMatch(result.output, /SECRET/);
    assert.equal(result.output.match(/^unreadable /gm)?.length, secrets.length, result.output);
    // What remains is the toolchain folder and the way to the workspace.
    assert.match(result.output, /^\[home\] \.cargo projects \n/m);
    assert.match(result.output, /\[end\]/);
  });

  test('a toolchain folder is there, read-only; the workspace stays writable', async () => {
    const result = await fixture.run('~/.cargo/bin/tool && (touch ~/.cargo/bin/new 2>&1 || true) && echo ok > in-workspace.txt && cat in-workspace.txt');
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /TOOL RAN/);
    assert.match(result.output, /Read-only file system/);
    assert.equal(await readFile(join(fixture.root, 'in-workspace.txt'), 'utf8'), 'ok\n');
  });

  test("the extension host's environment does not reach the command; PATH and the toolchain variables do", async () => {
    const result = await fixture.run('env; echo "[path] $(command -v git)"');
    assert.doesNotMatch(result.output, /env-secret|GATEWAY_TEST_SECRET|SSH_AUTH_SOCK|VSCODE_|DBUS_|XDG_RUNTIME_DIR|API_KEY/);
    assert.match(result.output, /^\[path\] \/\S*git$/m);
    assert.match(result.output, /^JAVA_HOME=\/usr\/lib\/jvm\/default$/m);
    assert.match(result.output, new RegExp(`^HOME=${fixture.home}$`, 'm'));
    assert.match(result.output, /^TMPDIR=\/tmp$/m);
  });
});
