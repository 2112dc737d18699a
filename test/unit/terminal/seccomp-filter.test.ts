// The seccomp program's bytes, read back instruction by instruction and run by a small classic-BPF
// interpreter written from the kernel's definitions (struct sock_filter, struct seccomp_data), so each rule is
// checked against the calls it must refuse and those it must let through. The real kernel's verdict is in
// test/security/seccomp.test.ts and test/security/kernel-surface.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seccompArchOf, seccompInstructions, seccompProgram, type SeccompArch, type SockFilter } from '../../../src/terminal/common/seccompFilter';

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

/**
 * Classic BPF as the kernel runs a seccomp program, the instructions this program may use and no others: the
 * accumulator and k are unsigned 32-bit; a load reads one aligned word of seccomp_data; a jump skips jt or jf
 * instructions past the next one (so only forward: the program always ends); the first return is the verdict.
 */
function run(program: SockFilter[], data: DataView): number {
  assert.ok(program.length > 0 && program.length <= 4096, 'BPF_MAXINSNS');
  let accumulator = 0;
  let pc = 0;
  while (pc < program.length) {
    const { code, jt, jf } = program[pc];
    const k = program[pc].k >>> 0;
    pc++;
    switch (code) {
      case 0x20: // BPF_LD | BPF_W | BPF_ABS
        assert.ok(k % 4 === 0 && k + 4 <= data.byteLength, `load at offset ${k}`);
        accumulator = data.getUint32(k, true);
        break;
      case 0x54: // BPF_ALU | BPF_AND | BPF_K
        accumulator = (accumulator & k) >>> 0;
        break;
      case 0x15: // BPF_JMP | BPF_JEQ | BPF_K
        pc += accumulator === k ? jt : jf;
        break;
      case 0x35: // BPF_JMP | BPF_JGE | BPF_K
        pc += accumulator >= k ? jt : jf;
        break;
      case 0x06: // BPF_RET | BPF_K
        return k;
      default:
        assert.fail(`unexpected instruction ${code.toString(16)} at ${pc - 1}`);
    }
  }
  return assert.fail('the program ran off its end');
}

test('the interpreter: jumps are relative to the next instruction, values unsigned, AND masks', () => {
  const ins = (code: number, k: number, jt = 0, jf = 0): SockFilter => ({ code, jt, jf, k });
  const data = seccompData({ nr: -1, arch: 0, args: [0x1234_5805n] });
  // nr is 0xffffffff read unsigned: equal to k written as -1 (0xffffffff), and at least 0x80000000.
  assert.equal(run([ins(0x20, 0), ins(0x15, -1, 1, 0), ins(0x06, 1), ins(0x35, 0x80000000, 0, 1), ins(0x06, 2), ins(0x06, 3)], data), 2);
  assert.equal(run([ins(0x20, 0), ins(0x15, 7, 0, 2), ins(0x06, 1), ins(0x06, 2), ins(0x06, 3)], data), 3);
  assert.equal(run([ins(0x20, 16), ins(0x54, 0xf), ins(0x15, 5, 1, 0), ins(0x06, 1), ins(0x06, 2)], data), 2);
  // AND keeps the result unsigned: 0xffffffff & 0xffff0000 is 0xffff0000, not a negative number.
  assert.equal(run([ins(0x20, 0), ins(0x54, 0xffff0000), ins(0x15, 0xffff0000, 1, 0), ins(0x06, 1), ins(0x06, 2)], data), 2);
  assert.throws(() => run([ins(0x20, 2), ins(0x06, 0)], data), /load at offset 2/);
  assert.throws(() => run([ins(0x20, 0), ins(0x15, 0, 0, 5)], data), /ran off its end/);
  assert.throws(() => run([ins(0x45, 1), ins(0x06, 0)], data), /unexpected instruction 45/);
});

/** The kernel's numbers, from arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h (arm64). */
const machines: Record<
  SeccompArch,
  {
    arch: number;
    foreignArch: number;
    socket: number;
    socketpair: number;
    ioctl: number;
    read: number;
    write: number;
    clone: number;
    keys: { keyctl: number; add_key: number; request_key: number };
    otherProcesses: { ptrace: number; process_vm_readv: number; process_vm_writev: number; pidfd_getfd: number };
  }
> = {
  x64: {
    arch: 0xc000003e,
    foreignArch: 0x40000003 /* i386 */,
    socket: 41,
    socketpair: 53,
    ioctl: 16,
    read: 0,
    write: 1,
    clone: 56,
    keys: { keyctl: 250, add_key: 248, request_key: 249 },
    otherProcesses: { ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, pidfd_getfd: 438 },
  },
  arm64: {
    arch: 0xc00000b7,
    foreignArch: 0x40000028 /* arm */,
    socket: 198,
    socketpair: 199,
    ioctl: 29,
    read: 63,
    write: 64,
    clone: 220,
    keys: { keyctl: 219, add_key: 217, request_key: 218 },
    otherProcesses: { ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, pidfd_getfd: 438 },
  },
};

const AF_UNIX = 1n;
const AF_INET = 2n;
const AF_INET6 = 10n;
const AF_VSOCK = 40n;
const SOCK_STREAM = 1n;
const SOCK_DGRAM = 2n;
const SOCK_RAW = 3n;
const SOCK_SEQPACKET = 5n;
const SOCK_NONBLOCK = 0o4000n;
const SOCK_CLOEXEC = 0o2000000n;

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

    test('socket(AF_UNIX) and socket(AF_VSOCK) are refused with EPERM, whatever the upper bits; other families pass', () => {
      assert.equal(verdict(machine.socket, [AF_UNIX, SOCK_STREAM, 0n]), EPERM);
      assert.equal(verdict(machine.socket, [0xffffffff00000001n, SOCK_STREAM]), EPERM);
      assert.equal(verdict(machine.socket, [AF_VSOCK, SOCK_STREAM, 0n]), EPERM);
      assert.equal(verdict(machine.socket, [AF_VSOCK, SOCK_DGRAM | SOCK_CLOEXEC, 0n]), EPERM);
      assert.equal(verdict(machine.socket, [0x1_0000_0000n | AF_VSOCK, SOCK_STREAM]), EPERM);
      assert.equal(verdict(machine.socket, [AF_INET, SOCK_STREAM, 0n]), ALLOW);
      assert.equal(verdict(machine.socket, [AF_INET6, SOCK_DGRAM, 0n]), ALLOW);
      assert.equal(verdict(machine.socket, [41n, SOCK_STREAM, 0n]), ALLOW); // AF_VSOCK's neighbour (AF_KCM)
    });

    test('socketpair: stream and seqpacket pairs pass, with SOCK_NONBLOCK and SOCK_CLOEXEC; datagram and raw pairs are refused', () => {
      for (const flags of [0n, SOCK_CLOEXEC, SOCK_NONBLOCK, SOCK_CLOEXEC | SOCK_NONBLOCK]) {
        assert.equal(verdict(machine.socketpair, [AF_UNIX, SOCK_STREAM | flags, 0n]), ALLOW, `stream ${flags}`);
        assert.equal(verdict(machine.socketpair, [AF_UNIX, SOCK_SEQPACKET | flags, 0n]), ALLOW, `seqpacket ${flags}`);
        assert.equal(verdict(machine.socketpair, [AF_UNIX, SOCK_DGRAM | flags, 0n]), EPERM, `dgram ${flags}`);
        // AF_UNIX makes a raw socket a datagram one.
        assert.equal(verdict(machine.socketpair, [AF_UNIX, SOCK_RAW | flags, 0n]), EPERM, `raw ${flags}`);
      }
      // Types the mask leaves as something else, and the upper 32 bits the kernel never reads.
      assert.equal(verdict(machine.socketpair, [AF_UNIX, 0n, 0n]), EPERM);
      assert.equal(verdict(machine.socketpair, [AF_UNIX, 4n /* SOCK_RDM */, 0n]), EPERM);
      assert.equal(verdict(machine.socketpair, [AF_UNIX, 10n /* SOCK_PACKET */, 0n]), EPERM);
      assert.equal(verdict(machine.socketpair, [AF_UNIX, 0x11n, 0n]), ALLOW); // 0x10 is not a flag: the kernel answers EINVAL
      assert.equal(verdict(machine.socketpair, [AF_UNIX, 0xffffffff_00000002n, 0n]), EPERM);
      assert.equal(verdict(machine.socketpair, [AF_UNIX, 0xffffffff_00000001n, 0n]), ALLOW);
      // The type is what is checked, in the second argument: a stream type in the first argument is nothing.
      assert.equal(verdict(machine.socketpair, [SOCK_STREAM, SOCK_DGRAM, 0n]), EPERM);
    });

    test('keyctl, add_key and request_key are refused with EPERM, whatever their arguments', () => {
      for (const [call, nr] of Object.entries(machine.keys)) {
        assert.equal(verdict(nr), EPERM, call);
        // keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0), what read the host's session keyring.
        assert.equal(verdict(nr, [0n, 0xfffffffffffffffdn, 0n]), EPERM, call);
      }
    });

    test('ptrace, process_vm_readv, process_vm_writev and pidfd_getfd are refused with EPERM', () => {
      for (const [call, nr] of Object.entries(machine.otherProcesses)) {
        assert.equal(verdict(nr), EPERM, call);
        // ptrace(PTRACE_SEIZE, 1, …), what reached bwrap's PID 1.
        assert.equal(verdict(nr, [0x4206n, 1n, 0n, 0n]), EPERM, call);
      }
    });

    test("the refused calls' neighbours and everyday calls pass", () => {
      const refused = new Set([...Object.values(machine.keys), ...Object.values(machine.otherProcesses), 425, 426, 427]);
      const ruled = new Set([machine.socket, machine.socketpair, machine.ioctl]);
      for (const nr of refused) {
        for (const neighbour of [nr - 1, nr + 1]) {
          if (!refused.has(neighbour) && !ruled.has(neighbour)) assert.equal(verdict(neighbour, [0n, 1n, 0n]), ALLOW, `${neighbour}, next to ${nr}`);
        }
      }
      for (const nr of [machine.read, machine.write, machine.clone]) assert.equal(verdict(nr, [1n, 0n, 4096n]), ALLOW, String(nr));
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
      assert.equal(verdict(machine.socketpair, [1n, 1n], machine.foreignArch), KILL_PROCESS);
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
