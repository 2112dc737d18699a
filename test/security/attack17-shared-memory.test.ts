// Attack (round 17): one sandboxed process holds more memory than its limit, in shared memory.
// README (Security) said each command runs "with … half the machine's memory (16 GB at most) per process". The limit
// is RLIMIT_DATA (bubblewrap.ts LAUNCHER: `ulimit -d`), which the kernel charges for private writable mappings
// only (mm/mmap.c is_data_mapping: VM_WRITE without VM_SHARED). A shared mapping of a file in a tmpfs is not
// charged: the sandbox's own /dev/shm, and the emptied home folder, were tmpfs of half the machine's memory each.
// Shown with a 64 MB limit (BubblewrapOptions.limits, as defaultSandboxLimits would give on a 128 MB machine): a
// 256 MB private allocation is refused (control); 256 MB written to /dev/shm, or to the home folder's scratch, and
// mapped shared, was resident.
// The fix sizes those tmpfs to the per-process limit (bwrap --size, 0.8 and later) and makes the rest of /dev
// read-only. The round's first version of this test also mapped a memfd (memfd_create) shared: no mechanism
// available to an unprivileged extension bounds that (RLIMIT_AS breaks programs that reserve large address ranges,
// V8's and Chromium's included; a memory cgroup is rarely delegated), so README now says the limit does not count
// memfd shared memory, and that case is no longer asserted here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const LIMIT = 64 * 1024 ** 2;
const PROGRAM = `import mmap, os, sys
n = 256 << 20
if sys.argv[1] == 'private':
    try:
        b = bytearray(n)
        b[::4096] = b'x' * (n // 4096)
        print('resident', n >> 20, 'MiB')
    except MemoryError:
        print('refused')
    sys.exit(0)
fd = os.open(sys.argv[2], os.O_RDWR | os.O_CREAT, 0o600)
chunk = b'x' * (1 << 20)
try:
    for i in range(n >> 20):
        os.write(fd, chunk)
except OSError as error:
    print('refused at', i, 'MiB:', error.strerror)
    sys.exit(0)
m = mmap.mmap(fd, n)
print('resident', sum(1 for i in range(0, n, 1 << 20) if m[i] == 120), 'MiB')
`;

describe('attack: memory past the per-process limit, in shared mappings', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture({ limits: { processes: 4096, memoryBytes: LIMIT, fileBytes: 4 * 1024 ** 3 } });
  });
  after(async () => fixture.remove());

  const run = (...args: string[]) => fixture.run(`cat > /tmp/m.py <<'PYEOF'\n${PROGRAM}PYEOF\n/usr/bin/python3 /tmp/m.py ${args.join(' ')}`);

  test('control: 256 MB of private memory is refused under a 64 MB limit', async () => {
    const result = await run('private');
    assert.match(result.output, /refused/, `control: ${result.output}`);
  });

  test('256 MB of a shared mapping of a /dev/shm file is refused under a 64 MB limit', async () => {
    const result = await run('file', '/dev/shm/m');
    assert.match(result.output, /refused at \d+ MiB/, result.output);
    assert.doesNotMatch(result.output, /resident 256 MiB/, `one process held 256 MB of /dev/shm under a 64 MB limit: ${result.output}`);
  });

  test("256 MB of a shared mapping of a file in the home folder's scratch is refused under a 64 MB limit", async () => {
    const result = await run('file', '"$HOME/m"');
    assert.match(result.output, /refused at \d+ MiB/, result.output);
    assert.doesNotMatch(result.output, /resident 256 MiB/, `one process held 256 MB of the home folder's tmpfs under a 64 MB limit: ${result.output}`);
  });

  test('nothing else under /dev takes files: it is read-only', async () => {
    const result = await fixture.run('echo x > /dev/m && echo written; echo "[end]"');
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(result.output, /written/, result.output);
  });
});
