// The seccomp program for real (its structure is tested in test/unit/terminal/seccomp-filter.test.ts): no Unix socket,
// no io_uring, no other ABI; socketpair and everyday commands still work.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const SYSCALLS = String.raw`
import ctypes, errno, socket
libc = ctypes.CDLL(None, use_errno=True)
def attempt(name, call):
    try:
        call()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
attempt("unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
attempt("unix-dgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))
attempt("socketpair", lambda: socket.socketpair())
attempt("inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
params = ctypes.create_string_buffer(120)
fd = libc.syscall(425, 4, params)
print("io_uring_setup", "ok" if fd >= 0 else errno.errorcode[ctypes.get_errno()])
`;

describe('the seccomp program, for real', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'src'));
    await writeFile(join(fixture.root, 'src/a.txt'), 'a\nb\nc\n');
  });
  after(() => fixture.remove());

  test('outside, every call works (what the sandbox refuses is its own doing)', async () => {
    const { stdout } = await runOutside('python3', ['-c', SYSCALLS]);
    assert.match(stdout, /^unix ok$/m);
    assert.match(stdout, /^io_uring_setup ok$/m);
  });

  test('inside: socket(AF_UNIX) and io_uring fail with EPERM; socketpair and AF_INET sockets work', async () => {
    const result = await fixture.run(`python3 -c '${SYSCALLS}'`, { network: true });
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(result.output, 'unix EPERM\nunix-dgram EPERM\nsocketpair ok\ninet ok\nio_uring_setup EPERM\n');
  });

  if (process.arch === 'x64') {
    test('a 32-bit system call (int 0x80) kills the process instead of slipping past the rules', async () => {
      // getpid through the i386 ABI, as machine code in an executable page.
      const int80 = String.raw`
import ctypes, mmap
code = bytes([0xb8, 0x14, 0, 0, 0, 0xcd, 0x80, 0xc3])
page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
page.write(code)
address = ctypes.addressof(ctypes.c_char.from_buffer(page))
print("pid via int 0x80:", ctypes.CFUNCTYPE(ctypes.c_int)(address)())
`;
      const outside = await runOutside('python3', ['-c', int80]);
      assert.match(outside.stdout, /pid via int 0x80: \d+/);
      const inside = await fixture.run(`python3 -c '${int80}'; echo "[exit $?]"`);
      assert.doesNotMatch(inside.output, /pid via int 0x80: \d/);
      // 128 + SIGSYS (31).
      assert.match(inside.output, /\[exit 159\]/);
    });
  }

  test('everyday commands still work: git, node, python, npm, a pipeline', async () => {
    const result = await fixture.run(
      'git init -q . 2>&1 && git status --short && node -e "console.log(6 * 7)" && python3 -c "print(\'py\')" && npm --version && sort -r src/a.txt | head -n 2 | tr a-z A-Z',
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /\?\? src\/\n42\npy\n\d+\.\d+\.\d+\nC\nB\n$/);
  });
});
