/**
 * The sandbox's seccomp program, as the bytes bubblewrap's `--seccomp FD`
 * reads: an array of classic BPF instructions (`struct sock_filter`, 8 bytes
 * each, little-endian like both supported machines). Generated here rather than
 * shipped as a native helper, so nothing outside this file decides what it
 * blocks, and a test can read it instruction by instruction.
 *
 * What it denies, and why the namespaces alone are not enough:
 * - socket(AF_UNIX): a Unix socket is reached through the file system, which the
 *   network namespace does not cover ($SSH_AUTH_SOCK, D-Bus, docker.sock, VS
 *   Code's own IPC). socketpair stays allowed: it only joins two ends the
 *   command itself holds (Python's multiprocessing, make's job server).
 * - ioctl TIOCSTI and TIOCLINUX: both push input into a terminal, which a
 *   shell outside the sandbox would then run (a second layer behind
 *   `--new-session`, which already takes the controlling terminal away).
 * - io_uring_setup/enter/register: io_uring creates sockets in the kernel's own
 *   context, which the socket() rule never sees.
 * - any other architecture or ABI (x86's 32-bit `int 0x80`, x32, arm32): their
 *   system-call numbers differ, so the rules above would not hold; such a
 *   process is killed.
 */

/** The machines the program is written for (Node's `process.arch` names). */
export type SeccompArch = 'x64' | 'arm64';

interface ArchTable {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  auditArch: number;
  socket: number;
  ioctl: number;
  /** x86-64 marks x32-ABI calls with this bit in the number; none elsewhere. */
  x32Bit?: number;
}

const archTables: Record<SeccompArch, ArchTable> = {
  x64: { auditArch: 0xc000003e, socket: 41, ioctl: 16, x32Bit: 0x40000000 },
  arm64: { auditArch: 0xc00000b7, socket: 198, ioctl: 29 },
};

/** The same numbers on both machines (the generic table). */
const ioUringCalls = [425, 426, 427];
const AF_UNIX = 1;
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
export const BPF_RET_K = 0x06;

/** Offsets in struct seccomp_data: nr, arch, then args[] (8 bytes each; the low word first on little-endian machines). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const argLowWord = (index: number) => 16 + 8 * index;

/** One instruction before its jumps are resolved: targets are labels. */
type Step =
  | { op: 'load'; offset: number }
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
  return [
    { op: 'load', offset: ARCH_OFFSET },
    { op: 'jumpIfEqual', value: table.auditArch, to: 'native' },
    { op: 'return', value: SECCOMP_RET_KILL_PROCESS },
    { op: 'label', name: 'native' },
    { op: 'load', offset: NR_OFFSET },
    ...(table.x32Bit !== undefined ? [{ op: 'jumpIfAtLeast', value: table.x32Bit, to: 'kill' } as const] : []),
    { op: 'jumpIfEqual', value: table.socket, to: 'socket' },
    { op: 'jumpIfEqual', value: table.ioctl, to: 'ioctl' },
    ...ioUringCalls.map((nr) => ({ op: 'jumpIfEqual', value: nr, to: 'deny' }) as const),
    { op: 'return', value: SECCOMP_RET_ALLOW },
    // The domain and the request are C ints: the kernel reads only the low 32 bits, so only they are compared.
    { op: 'label', name: 'socket' },
    { op: 'load', offset: argLowWord(0) },
    { op: 'jumpIfEqual', value: AF_UNIX, to: 'deny' },
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
