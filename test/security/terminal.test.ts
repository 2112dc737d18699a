// Issue 21, finding 1: the terminal. The integrated-terminal path used to type the bwrap line into the user's
// shell: the sandboxed command held that terminal as its controlling terminal and pushed a line into its input
// (TIOCSTI); the user's shell ran it after bwrap exited, outside the sandbox. This machine's kernel allows
// TIOCSTI (dev.tty.legacy_tiocsti=1 here). The command now runs in a new session (no controlling terminal) and
// the seccomp program refuses TIOCSTI and TIOCLINUX; and the extension never gives it a terminal at all.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

/**
 * The user's terminal, played by python: a pty whose shell (the forked child, session leader, the pty its
 * controlling terminal) runs the launch as the old terminal path did, then reads whatever was typed in the
 * meantime, as the shell's next line. The seccomp program goes through on fd 3 as the extension passes it.
 */
const USER_TERMINAL = String.raw`
import json, os, pty, select, subprocess, sys
argv = json.loads(sys.argv[1])
pid, master = pty.fork()
if pid == 0:
    subprocess.run(argv, pass_fds=(3,))
    # What is already in the terminal's input now is what the shell would run next (no waiting: TIOCSTI is synchronous).
    ready, _, _ = select.select([0], [], [], 0)
    typed = os.read(0, 4096) if ready else b''
    sys.stdout.write('\nSHELL-NEXT-LINE:' + json.dumps(typed.decode('utf8', 'replace')) + '\n')
    sys.stdout.flush()
    os._exit(0)
shown = b''
while len(shown) < 1 << 20:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    shown += chunk
os.waitpid(pid, 0)
sys.stdout.write(shown.decode('utf8', 'replace'))
`;

/** Types `echo INJECTED` into its standard input's terminal, one character at a time, and says what each ioctl did. */
const INJECT = String.raw`python3 -c '
import errno, fcntl, termios
results = []
for ch in "echo INJECTED\n":
    try:
        fcntl.ioctl(0, termios.TIOCSTI, ch.encode())
        results.append("ok")
    except OSError as e:
        results.append(errno.errorcode[e.errno])
print("TIOCSTI:", ",".join(sorted(set(results))))
'`;

describe('the terminal (finding 1)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(() => fixture.remove());

  test("a sandboxed command given the user's terminal cannot type a line into it", async () => {
    const launch = await fixture.launch(INJECT);
    const { stdout } = await runOutside('python3', ['-c', USER_TERMINAL, JSON.stringify(launch.argv)], { env: launch.env, extraFd: launch.seccomp });
    assert.match(stdout, /TIOCSTI: EPERM\r?\n/, stdout);
    assert.match(stdout, /SHELL-NEXT-LINE:""/, stdout);
    assert.doesNotMatch(stdout, /echo INJECTED/);
  });

  test('nor into a terminal it opens itself (the seccomp program refuses TIOCSTI and TIOCLINUX)', async () => {
    // Inside, a new pty whose controlling process is the command's own child: only seccomp stands in the way.
    const result = await fixture.run(String.raw`python3 -c '
import errno, fcntl, os, pty, termios
pid, master = pty.fork()
if pid == 0:
    out = []
    for request in (termios.TIOCSTI, 0x541C):
        try:
            fcntl.ioctl(0, request, b"x")
            out.append("ok")
        except OSError as e:
            out.append(errno.errorcode[e.errno])
    os.write(1, ("RESULT " + " ".join(out) + "\n").encode())
    os._exit(0)
data = b""
while True:
    try:
        chunk = os.read(master, 1024)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
os.waitpid(pid, 0)
print(data.decode())
'`);
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /RESULT EPERM EPERM/);
  });
});
