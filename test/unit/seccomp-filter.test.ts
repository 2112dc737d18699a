// The seccomp program's bytes, read back instruction by instruction and run by a small classic-BPF
// interpreter written from the kernel's definitions (struct sock_filter, struct seccomp_data), so each rule is
// checked against the calls it must refuse and those it must let through. The real kernel's verdict is in
// test/security/seccomp.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seccompArchOf, seccompInstructions, seccompProgram, type SeccompArch, type SockFilter } from '../../src/terminal/common/seccompFilter';

const KILL_PROCESS = 0x80000000;
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;

/** Decodes the bytes as the kernel does on a little-endian machine. */
function decode(bytes: Uint8Array): SockFilter[] {
  assert.equal(bytes.length % 8, 0);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 8 }, (_, index) => ({
    code: view.getUint16(index * 8, true),
    jt: view.getUint8(index * 8 + 2),
    jf: view.getUint8(index * 8 + 3),
    k: view.getUint32(index * 8 + 4, true),
  }));
}

/** struct seccomp_data as bytes: nr, arch, instruction pointer, six 64-bit arguments. */
function seccompData(call: { nr: number; arch: number; args?: bigint[] }): DataView {
  const view = new DataView(new ArrayBuffer(64));
  view.setInt32(0, call.nr, true);
  view.setUint32(4, call.arch, true);
  (call.args ?? []).forEach((arg, index) => view.setBigUint64(16 + 8 * index, arg, true));
  return view;
}

/** Classic BPF, the subset a seccomp program may use; anything else fails the test. */
function run(program: SockFilter[], data: DataView): number {
  let accumulator = 0;
  for (let pc = 0, steps = 0; pc < program.length && steps < 1000; pc++, steps++) {
    const { code, jt, jf, k } = program[pc];
    if (code === 0x20) accumulator = data.getUint32(k, true);
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x35) pc += accumulator >>> 0 >= k ? jt : jf;
    else if (code === 0x06) return k >>> 0;
    else assert.fail(`unexpected instruction ${code.toString(16)} at ${pc}`);
  }
  return assert.fail('the program ran off its end');
}

const machines: Record<SeccompArch, { arch: number; socket: number; socketpair: number; ioctl: number; read: number; foreignArch: number }> = {
  x64: { arch: 0xc000003e, socket: 41, socketpair: 53, ioctl: 16, read: 0, foreignArch: 0x40000003 /* i386 */ },
  arm64: { arch: 0xc00000b7, socket: 198, socketpair: 199, ioctl: 29, read: 63, foreignArch: 0x40000028 /* arm */ },
};

for (const [name, machine] of Object.entries(machines) as [SeccompArch, (typeof machines)['x64']][]) {
  describe(`the seccomp program for ${name}`, () => {
    const bytes = seccompProgram(name);
    const program = decode(bytes);
    const verdict = (nr: number, args: bigint[] = [], arch = machine.arch) => run(program, seccompData({ nr, arch, args }));

    test('the bytes are the instructions, 8 bytes each; every jump lands inside the program', () => {
      assert.deepEqual(program, seccompInstructions(name));
      program.forEach(({ code, jt, jf }, index) => {
        if (code === 0x15 || code === 0x35) assert.ok(index + 1 + Math.max(jt, jf) < program.length, `jump at ${index}`);
      });
      assert.equal(program.at(-1)?.code, 0x06, 'ends with a return');
    });

    test('socket(AF_UNIX) is refused with EPERM, whatever the upper bits; other families and socketpair pass', () => {
      assert.equal(verdict(machine.socket, [1n, 1n, 0n]), EPERM);
      assert.equal(verdict(machine.socket, [0xffffffff00000001n, 1n]), EPERM);
      assert.equal(verdict(machine.socket, [2n, 1n, 0n]), ALLOW);
      assert.equal(verdict(machine.socket, [10n, 2n, 0n]), ALLOW);
      assert.equal(verdict(machine.socketpair, [1n, 1n, 0n]), ALLOW);
    });

    test('ioctl TIOCSTI and TIOCLINUX are refused, whatever the upper bits; other requests pass', () => {
      assert.equal(verdict(machine.ioctl, [0n, 0x5412n]), EPERM);
      assert.equal(verdict(machine.ioctl, [0n, 0x541cn]), EPERM);
      assert.equal(verdict(machine.ioctl, [0n, 0x1_0000_5412n]), EPERM);
      assert.equal(verdict(machine.ioctl, [0n, 0x5401n]), ALLOW); // TCGETS
      assert.equal(verdict(machine.ioctl, [0x5412n, 0n]), ALLOW); // the number in the wrong argument is nothing
    });

    test('io_uring_setup, io_uring_enter and io_uring_register are refused; ordinary calls pass', () => {
      for (const nr of [425, 426, 427]) assert.equal(verdict(nr), EPERM);
      assert.equal(verdict(machine.read), ALLOW);
      assert.equal(verdict(424), ALLOW);
    });

    test('another architecture (32-bit compat) is killed, even for an allowed number', () => {
      assert.equal(verdict(machine.read, [], machine.foreignArch), KILL_PROCESS);
      assert.equal(verdict(machine.socket, [2n], machine.foreignArch), KILL_PROCESS);
    });
  });
}

test('x32 system calls (bit 30 of the number) are killed on x86-64', () => {
  const program = decode(seccompProgram('x64'));
  assert.equal(run(program, seccompData({ nr: 0x40000000 + 41, arch: 0xc000003e, args: [1n] })), KILL_PROCESS);
  assert.equal(run(program, seccompData({ nr: 0x40000000, arch: 0xc000003e })), KILL_PROCESS);
});

test('only x64 and arm64 have a program', () => {
  assert.equal(seccompArchOf('x64'), 'x64');
  assert.equal(seccompArchOf('arm64'), 'arm64');
  for (const arch of ['ia32', 'arm', 'riscv64', 'ppc64', 's390x']) assert.equal(seccompArchOf(arch), undefined);
});
