/**
 * The sandbox's seccomp program, as the bytes bubblewrap's `--seccomp FD`
 * reads: an array of classic BPF instructions (`struct sock_filter`, 8 bytes
 * each, little-endian like both supported machines). Generated here rather than
 * shipped as a native helper, so nothing outside this file decides what it
 * blocks, and a test can read it instruction by instruction (and run it:
 * test/unit/terminal/seccomp-filter.test.ts).
 *
 * What it denies (EPERM), and why the namespaces alone are not enough:
 * - socket(AF_UNIX): a Unix socket is reached through the file system, which the
 *   network namespace does not cover ($SSH_AUTH_SOCK, D-Bus, docker.sock, VS
 *   Code's own IPC).
 * - socket(AF_VSOCK): vsock reaches the hypervisor (and, through it, other
 *   VMs) by context id, beside the IP network the network namespace takes
 *   away; the socket is made just the same with the network off. A command
 *   has no use for it.
 * - socketpair, unless its type is SOCK_STREAM or SOCK_SEQPACKET: a datagram
 *   pair (SOCK_DGRAM, or SOCK_RAW, which AF_UNIX turns into one) may sendto()
 *   any bound Unix datagram socket by path (journald, /dev/log, a service's
 *   notify socket), the very thing the socket() rule refuses. A stream or
 *   seqpacket pair only joins two ends the command holds, and everyday tools
 *   make them: libuv for node's child_process stdio and IPC, Python's
 *   multiprocessing.Pipe (both SOCK_STREAM|SOCK_CLOEXEC under strace). The
 *   type is compared after masking it to SOCK_TYPE_MASK (0xf), as the kernel
 *   does, so SOCK_NONBLOCK and SOCK_CLOEXEC do not change the verdict.
 * - keyctl, add_key, request_key: no namespace bubblewrap makes isolates the
 *   kernel's keyrings. The command inherits the user's session keyring (and
 *   could read the secrets in it), and a key it adds outlives it.
 * - ptrace, process_vm_readv, process_vm_writev, pidfd_getfd: reading or
 *   changing another process of the same user, its memory or its files.
 *   Inside the sandbox that is bwrap's PID 1: a command that traced it
 *   cleared its parent-death signal, and the sandbox outlived its timeout.
 *   Not covered here: /proc/1/mem still opens read-write (the kernel checks it
 *   as it checks ptrace, and a filter sees no paths), so keeping PID 1 out of
 *   the command's reach cannot rest on this program alone.
 * - ioctl TIOCSTI and TIOCLINUX: both push input into a terminal, which a
 *   shell outside the sandbox would then run (a second layer behind
 *   `--new-session`, which already takes the controlling terminal away).
 * - io_uring_setup/enter/register: io_uring creates sockets in the kernel's own
 *   context, which the socket() rule never sees.
 * - any other architecture or ABI (x86's 32-bit `int 0x80`, x32, arm32): their
 *   system-call numbers differ, so the rules above would not hold; such a
 *   process is killed.
 * Numbers are from the kernel's tables: arch/x86/entry/syscalls/syscall_64.tbl
 * for x86-64, include/uapi/asm-generic/unistd.h for arm64.
 */

/** The machines the program is written for (Node's `process.arch` names). */
export type SeccompArch = 'x64' | 'arm64';

interface ArchTable {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  auditArch: number;
  socket: number;
  socketpair: number;
  ioctl: number;
  /** Refused outright, whatever their arguments (the numbers differ between the two tables). */
  denied: { keyctl: number; add_key: number; request_key: number; ptrace: number; process_vm_readv: number; process_vm_writev: number };
  /** x86-64 marks x32-ABI calls with this bit in the number; none elsewhere. */
  x32Bit?: number;
}

const archTables: Record<SeccompArch, ArchTable> = {
  // arch/x86/entry/syscalls/syscall_64.tbl
  x64: {
    auditArch: 0xc000003e,
    socket: 41,
    socketpair: 53,
    ioctl: 16,
    denied: { keyctl: 250, add_key: 248, request_key: 249, ptrace: 101, process_vm_readv: 310, process_vm_writev: 311 },
    x32Bit: 0x40000000,
  },
  // include/uapi/asm-generic/unistd.h
  arm64: {
    auditArch: 0xc00000b7,
    socket: 198,
    socketpair: 199,
    ioctl: 29,
    denied: { keyctl: 219, add_key: 217, request_key: 218, ptrace: 117, process_vm_readv: 270, process_vm_writev: 271 },
  },
};

/** Refused outright, numbered alike on both machines (from 424 on, the tables share one numbering): io_uring_setup/enter/register, pidfd_getfd. */
const deniedEverywhere = [425, 426, 427, 438];
const AF_UNIX = 1;
const AF_VSOCK = 40;
/** The socket type's bits; the rest of the argument is SOCK_NONBLOCK and SOCK_CLOEXEC (include/linux/net.h). */
const SOCK_TYPE_MASK = 0xf;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const EPERM = 1;

/** seccomp return values. */
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;

/** Classic BPF opcodes the program uses. */
export const BPF_LD_W_ABS = 0x20;
export const BPF_JMP_JEQ_K = 0x15;
export const BPF_JMP_JGE_K = 0x35;
/** BPF_ALU | BPF_AND | BPF_K: A &= k. */
export const BPF_ALU_AND_K = 0x54;
export const BPF_RET_K = 0x06;

/** Offsets in struct seccomp_data: nr, arch, then args[] (8 bytes each; the low word first on little-endian machines). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const argLowWord = (index: number) => 16 + 8 * index;

/** One instruction before its jumps are resolved: targets are labels. */
type Step =
  | { op: 'load'; offset: number }
  | { op: 'and'; value: number }
  | { op: 'jumpIfEqual' | 'jumpIfAtLeast'; value: number; to: string }
  | { op: 'return'; value: number }
  | { op: 'label'; name: string };

export interface SockFilter {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

export const SOCK_FILTER_BYTES = 8;

/** The program's steps for `arch`; a jump not taken falls through to the next step. */
function steps(arch: SeccompArch): Step[] {
  const table = archTables[arch];
  const denied = [...Object.values(table.denied), ...deniedEverywhere];
  return [
    { op: 'load', offset: ARCH_OFFSET },
    { op: 'jumpIfEqual', value: table.auditArch, to: 'native' },
    { op: 'return', value: SECCOMP_RET_KILL_PROCESS },
    { op: 'label', name: 'native' },
    { op: 'load', offset: NR_OFFSET },
    ...(table.x32Bit !== undefined ? [{ op: 'jumpIfAtLeast', value: table.x32Bit, to: 'kill' } as const] : []),
    { op: 'jumpIfEqual', value: table.socket, to: 'socket' },
    { op: 'jumpIfEqual', value: table.socketpair, to: 'socketpair' },
    { op: 'jumpIfEqual', value: table.ioctl, to: 'ioctl' },
    ...denied.map((nr) => ({ op: 'jumpIfEqual', value: nr, to: 'deny' }) as const),
    { op: 'return', value: SECCOMP_RET_ALLOW },
    // The domain, the type and the request are C ints: the kernel reads only the low 32 bits, so only they are compared.
    { op: 'label', name: 'socket' },
    { op: 'load', offset: argLowWord(0) },
    { op: 'jumpIfEqual', value: AF_UNIX, to: 'deny' },
    { op: 'jumpIfEqual', value: AF_VSOCK, to: 'deny' },
    { op: 'return', value: SECCOMP_RET_ALLOW },
    // An allow-list of types, not a deny-list of SOCK_DGRAM: AF_UNIX makes SOCK_RAW a datagram socket too.
    { op: 'label', name: 'socketpair' },
    { op: 'load', offset: argLowWord(1) },
    { op: 'and', value: SOCK_TYPE_MASK },
    { op: 'jumpIfEqual', value: SOCK_STREAM, to: 'pair' },
    { op: 'jumpIfEqual', value: SOCK_SEQPACKET, to: 'pair' },
    { op: 'return', value: SECCOMP_RET_ERRNO | EPERM },
    { op: 'label', name: 'pair' },
    { op: 'return', value: SECCOMP_RET_ALLOW },
    { op: 'label', name: 'ioctl' },
    { op: 'load', offset: argLowWord(1) },
    { op: 'jumpIfEqual', value: TIOCSTI, to: 'deny' },
    { op: 'jumpIfEqual', value: TIOCLINUX, to: 'deny' },
    { op: 'return', value: SECCOMP_RET_ALLOW },
    { op: 'label', name: 'deny' },
    { op: 'return', value: SECCOMP_RET_ERRNO | EPERM },
    { op: 'label', name: 'kill' },
    { op: 'return', value: SECCOMP_RET_KILL_PROCESS },
  ];
}

/** The program as instructions, jumps resolved to forward offsets (classic BPF only jumps forward). */
export function seccompInstructions(arch: SeccompArch): SockFilter[] {
  const program = steps(arch);
  const labels = new Map<string, number>();
  let index = 0;
  for (const step of program) {
    if (step.op === 'label') labels.set(step.name, index);
    else index++;
  }
  const instructions: SockFilter[] = [];
  for (const step of program) {
    if (step.op === 'label') continue;
    const here = instructions.length;
    if (step.op === 'load') instructions.push({ code: BPF_LD_W_ABS, jt: 0, jf: 0, k: step.offset });
    else if (step.op === 'and') instructions.push({ code: BPF_ALU_AND_K, jt: 0, jf: 0, k: step.value >>> 0 });
    else if (step.op === 'return') instructions.push({ code: BPF_RET_K, jt: 0, jf: 0, k: step.value >>> 0 });
    else {
      const target = labels.get(step.to);
      if (target === undefined || target <= here || target - here - 1 > 255) throw new Error(`bad jump to ${step.to}`);
      instructions.push({ code: step.op === 'jumpIfEqual' ? BPF_JMP_JEQ_K : BPF_JMP_JGE_K, jt: target - here - 1, jf: 0, k: step.value >>> 0 });
    }
  }
  return instructions;
}

/** The bytes for bwrap's `--seccomp FD`: each instruction as u16 code, u8 jt, u8 jf, u32 k, little-endian. */
export function seccompProgram(arch: SeccompArch): Uint8Array {
  const instructions = seccompInstructions(arch);
  const bytes = new Uint8Array(instructions.length * SOCK_FILTER_BYTES);
  const view = new DataView(bytes.buffer);
  instructions.forEach(({ code, jt, jf, k }, index) => {
    const at = index * SOCK_FILTER_BYTES;
    view.setUint16(at, code, true);
    view.setUint8(at + 2, jt);
    view.setUint8(at + 3, jf);
    view.setUint32(at + 4, k, true);
  });
  return bytes;
}

/** The machine's seccomp architecture, or undefined where the sandbox has no program for it. */
export function seccompArchOf(nodeArch: string): SeccompArch | undefined {
  return nodeArch === 'x64' || nodeArch === 'arm64' ? nodeArch : undefined;
}
