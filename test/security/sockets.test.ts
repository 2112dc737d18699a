// Issue 21, finding 3: Unix sockets. The network namespace does not cover sockets on the file system: the
// sandbox listed and signed with the user's ssh-agent keys and reached other services' sockets. Now no Unix
// socket can be made inside (seccomp: socket(AF_UNIX) fails with EPERM), with the network on or off, and
// /tmp, /run and $XDG_RUNTIME_DIR show none of the machine's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

/** Tries to connect to each socket path given; prints one line a path. */
const CONNECT_PY = String.raw`python3 -c '
import socket, sys
for path in sys.argv[1:]:
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.sendall(b"hello")
        print("CONNECTED", path, s.recv(100).decode())
    except OSError as e:
        print("REFUSED", path, e.strerror)
'`;

const CONNECT_NODE = String.raw`node -e '
const net = require("net");
const paths = process.argv.slice(1);
let left = paths.length;
for (const path of paths) {
  const socket = net.connect(path, () => socket.write("hello"));
  socket.on("data", (data) => { console.log("CONNECTED", path, String(data)); socket.destroy(); if (--left === 0) process.exit(0); });
  socket.on("error", (error) => { console.log("REFUSED", path, error.code); if (--left === 0) process.exit(0); });
}
'`;

function listen(path: string): Promise<Server> {
  const server = createServer((socket) => socket.on('data', () => socket.end('SERVED')));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

describe('Unix sockets (finding 3)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const servers: Server[] = [];
  let paths: string[];
  let agent: { pid: number; socket: string } | undefined;

  before(async () => {
    fixture = await makeFixture();
    // One in the workspace (which the sandbox must see, so only seccomp stops it), one where a service
    // keeps its socket ($XDG_RUNTIME_DIR-like), one under the test's temp folder.
    const runtime = join(fixture.base, 'run-user-1000');
    await mkdir(runtime, { recursive: true });
    paths = [join(fixture.root, 'dev.sock'), join(runtime, 'bus'), join(fixture.base, 'service.sock')];
    for (const path of paths) servers.push(await listen(path));
    // A real ssh-agent where installed (the case); its socket is one more to try.
    const started = spawnSync('ssh-agent', ['-s', '-a', join(fixture.base, 'agent.sock')], { encoding: 'utf8' });
    const pid = /SSH_AGENT_PID=(\d+)/.exec(started.stdout ?? '')?.[1];
    if (started.status === 0 && pid) agent = { pid: Number(pid), socket: join(fixture.base, 'agent.sock') };
  });
  after(async () => {
    for (const server of servers) server.close();
    if (agent && agent.pid > 0) process.kill(agent.pid);
    await fixture.remove();
  });

  test('the servers answer outside the sandbox (the test would see a connection)', async () => {
    // Not spawnSync: the servers live in this process's event loop.
    const outside = await runOutside('python3', ['-c', CONNECT_PY.slice("python3 -c '".length, -1), ...paths]);
    assert.equal(outside.stdout.match(/CONNECTED .* SERVED/g)?.length, paths.length, outside.stdout + outside.stderr);
  });

  for (const network of [false, true]) {
    test(`no socket can be reached from inside, network ${network ? 'allowed' : 'off'} (python, node)`, async () => {
      const python = await fixture.run(`${CONNECT_PY} ${paths.join(' ')}`, { network });
      assert.doesNotMatch(python.output, /CONNECTED|SERVED/);
      assert.equal(python.output.match(/^REFUSED /gm)?.length, paths.length, python.output);
      // The workspace's socket is visible: what refuses it is the seccomp program.
      assert.match(python.output, new RegExp(`REFUSED ${paths[0]} Operation not permitted`));
      const node = await fixture.run(`${CONNECT_NODE} ${paths.join(' ')}`, { network });
      assert.doesNotMatch(node.output, /CONNECTED|SERVED/);
      assert.equal(node.output.match(/^REFUSED /gm)?.length, paths.length, node.output);
    });
  }

  test("the user's ssh-agent cannot be used, even by its path", async (t) => {
    // Without ssh-agent here, a node socket server stands in (the same class of socket).
    const socket = agent?.socket ?? paths[2];
    if (!agent) t.diagnostic('ssh-agent is not installed: a node socket server stood in');
    const listed = await fixture.run(`SSH_AUTH_SOCK=${socket} ssh-add -l 2>&1; echo "[exit $?]"; ${CONNECT_PY} ${socket}`, { network: true });
    assert.doesNotMatch(listed.output, /CONNECTED|The agent has no identities|SHA256:/);
    assert.match(listed.output, new RegExp(`REFUSED ${socket} Operation not permitted`));
    // ssh-add: 2 when it cannot reach the agent (127 where it is not installed).
    assert.match(listed.output, /\[exit (2|127)\]/);
  });
});
