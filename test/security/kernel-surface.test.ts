// The kernel surface an attacker used from inside the sandbox, closed by the seccomp program
// (src/terminal/common/seccompFilter.ts; its verdicts instruction by instruction in test/unit/terminal/seccomp-filter.test.ts):
// - keyrings: a command read a secret from the host's session keyring, and a key it added outlived it;
// - other processes: a command ptraced bwrap's PID 1 and cleared its parent-death signal, so the sandbox outlived
//   its timeout (process_vm_readv/writev and pidfd_getfd reach another process's memory and files the same way);
// - socketpair(AF_UNIX, SOCK_DGRAM) then sendto() reached the host's Unix datagram sockets by path;
// - socket(AF_VSOCK) was made, network off too (vsock reaches the hypervisor beside the IP network).
// Each is refused with EPERM; stream socket pairs, which node's child processes and Python's multiprocessing use,
// still work.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

/** The kernel's numbers (arch/x86/entry/syscalls/syscall_64.tbl; include/uapi/asm-generic/unistd.h for arm64). */
const numbers: Record<string, Record<string, number>> = {
  x64: { keyctl: 250, add_key: 248, request_key: 249, ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, pidfd_open: 434, pidfd_getfd: 438 },
  arm64: { keyctl: 219, add_key: 217, request_key: 218, ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, pidfd_open: 434, pidfd_getfd: 438 },
};

/**
 * Makes each call once and prints one line a call: its name, then "ok" or the errno's name. Arguments:
 * name=number for each system call, and "pid1" to also try to trace PID 1 (inside the sandbox: bwrap).
 */
const PROBE = String.raw`
import ctypes, errno, os, socket, subprocess, sys
nr = {k: int(v) for k, v in (a.split("=") for a in sys.argv[1:] if "=" in a)}
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def arg(a):
    return ctypes.c_long(a) if isinstance(a, int) else a
def call(name, number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *[arg(a) for a in args])
    print(name, "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()])
    return result
def attempt(name, make):
    try:
        make().close()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
s = ctypes.c_char_p
# KEYCTL_GET_KEYRING_ID of KEY_SPEC_SESSION_KEYRING (-3); a key in KEY_SPEC_PROCESS_KEYRING (-2), gone with the process.
call("keyctl", nr["keyctl"], 0, -3, 0)
call("add_key", nr["add_key"], s(b"user"), s(b"gw-probe"), s(b"x"), 1, -2)
call("request_key", nr["request_key"], s(b"user"), s(b"gw-probe-none"), ctypes.c_void_p(None), 0)
# PTRACE_SEIZE (0x4206): of a child of ours, and of PID 1.
child = subprocess.Popen(["sleep", "30"])
call("ptrace-child", nr["ptrace"], 0x4206, child.pid, 0, 0)
child.kill()
child.wait()
if "pid1" in sys.argv:
    call("ptrace-pid1", nr["ptrace"], 0x4206, 1, 0, 0)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
source = ctypes.create_string_buffer(b"secret", 16)
target = ctypes.create_string_buffer(16)
local = iovec(ctypes.cast(target, ctypes.c_void_p), 16)
remote = iovec(ctypes.cast(source, ctypes.c_void_p), 16)
call("process_vm_readv", nr["process_vm_readv"], os.getpid(), ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
call("process_vm_writev", nr["process_vm_writev"], os.getpid(), ctypes.byref(remote), 1, ctypes.byref(local), 1, 0)
pidfd = libc.syscall(ctypes.c_long(nr["pidfd_open"]), ctypes.c_long(os.getpid()), ctypes.c_long(0))
call("pidfd_getfd", nr["pidfd_getfd"], pidfd, 1, 0)
def pair(kind):
    a, b = socket.socketpair(socket.AF_UNIX, kind)
    b.close()
    return a
attempt("socketpair-stream", lambda: pair(socket.SOCK_STREAM))
attempt("socketpair-stream-nonblock", lambda: pair(socket.SOCK_STREAM | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC))
attempt("socketpair-seqpacket", lambda: pair(socket.SOCK_SEQPACKET))
attempt("socketpair-dgram", lambda: pair(socket.SOCK_DGRAM))
attempt("socketpair-raw", lambda: pair(socket.SOCK_RAW))
attempt("vsock", lambda: socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM))
attempt("inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
`;

/** Sends "hello from <where>" to a Unix datagram socket by path, through a socket pair's end (no socket(AF_UNIX) needed). */
const SEND_DGRAM = String.raw`
import socket, sys
try:
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.sendto(("hello from " + sys.argv[2]).encode(), sys.argv[1])
    print("SENT")
except OSError as e:
    print("REFUSED", e.strerror)
`;

/** Tells the receiver below to stop. */
const END_DGRAM = 'import socket, sys\nsocket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"end", sys.argv[1])';

/** A host service's datagram socket: prints each message it gets until "end". */
const RECEIVE_DGRAM = String.raw`
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
print("ready", flush=True)
while True:
    message = s.recv(100).decode()
    print(message, flush=True)
    if message == "end":
        break
`;

/** node's child processes: stdio pipes and the IPC channel are stream socket pairs (libuv). */
const NODE_CHILDREN = String.raw`
const { execFileSync, spawn } = require("child_process");
console.log("exec:", execFileSync("sh", ["-c", "echo ok"]).toString().trim());
const child = spawn(process.execPath, ["-e", "process.send(42); process.disconnect()"], { stdio: ["pipe", "pipe", "pipe", "ipc"] });
child.on("message", (message) => console.log("ipc:", message));
child.on("exit", (code) => console.log("child exit:", code));
`;

/** Python's multiprocessing: Pipe() is a stream socket pair between the parent and the child. */
const PYTHON_MULTIPROCESSING = String.raw`
import multiprocessing
def child(end):
    end.send(end.recv() * 2)
    end.close()
if __name__ == "__main__":
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe()
    process = context.Process(target=child, args=(there,))
    process.start()
    here.send(21)
    print("multiprocessing:", here.recv())
    process.join()
    print("child exit:", process.exitcode)
`;

const probeArgs = Object.entries(numbers[process.arch] ?? {}).map(([name, nr]) => `${name}=${nr}`);

function lines(output: string): Map<string, string> {
  return new Map(output.split('\n').flatMap((line) => (/^\S+ \S+$/.test(line) ? [line.split(' ') as [string, string]] : [])));
}

describe('the kernel surface: keyrings, other processes, datagram pairs, vsock', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let outside: Map<string, string>;
  /** The probe inside, network off (the default) and allowed. */
  const inside: { network: boolean; calls: Map<string, string>; output: string }[] = [];
  before(async () => {
    fixture = await makeFixture();
    const out = await runOutside('python3', ['-c', PROBE, ...probeArgs]);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    outside = lines(out.stdout);
    for (const network of [false, true]) {
      const result = await fixture.run(`python3 -c '${PROBE}' ${probeArgs.join(' ')} pid1`, { network });
      assert.equal(result.exitCode, 0, result.output);
      inside.push({ network, calls: lines(result.output), output: result.output });
    }
  });
  after(() => fixture.remove());

  test('outside, the calls work (what the sandbox refuses is its own doing)', () => {
    for (const call of ['keyctl', 'add_key', 'ptrace-child', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'socketpair-dgram', 'socketpair-stream']) {
      assert.equal(outside.get(call), 'ok', call);
    }
    assert.equal(outside.get('request_key'), 'ENOKEY');
    // Where the machine has no vsock the family is unknown; what matters is that nothing outside refuses it with EPERM.
    assert.match(outside.get('vsock') ?? '', /^(ok|EAFNOSUPPORT|ENODEV)$/);
  });

  test('keyctl, add_key and request_key fail with EPERM inside', () => {
    for (const { calls, output } of inside)
      for (const call of ['keyctl', 'add_key', 'request_key']) assert.equal(calls.get(call), 'EPERM', `${call}\n${output}`);
  });

  test("ptrace fails with EPERM inside, of bwrap's PID 1 and of the command's own child; so do process_vm_readv/writev and pidfd_getfd", () => {
    for (const { calls, output } of inside) {
      for (const call of ['ptrace-pid1', 'ptrace-child', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd'])
        assert.equal(calls.get(call), 'EPERM', `${call}\n${output}`);
    }
  });

  test('socketpair: datagram (and raw) pairs fail with EPERM inside; stream and seqpacket pairs work, with SOCK_NONBLOCK|SOCK_CLOEXEC', () => {
    for (const { calls, output } of inside) {
      assert.equal(calls.get('socketpair-dgram'), 'EPERM', output);
      assert.equal(calls.get('socketpair-raw'), 'EPERM', output);
      for (const call of ['socketpair-stream', 'socketpair-stream-nonblock', 'socketpair-seqpacket']) assert.equal(calls.get(call), 'ok', `${call}\n${output}`);
    }
  });

  test('socket(AF_VSOCK) fails with EPERM inside, network off or allowed; AF_INET still works', () => {
    for (const { network, calls, output } of inside) {
      assert.equal(calls.get('vsock'), 'EPERM', `network ${network}\n${output}`);
      assert.equal(calls.get('inet'), 'ok', `network ${network}\n${output}`);
    }
  });

  test("a host service's Unix datagram socket gets nothing from inside through a socket pair", async () => {
    // In the workspace, so the path is visible inside: only the seccomp program stands between them.
    const path = join(fixture.root, 'service.dgram');
    const receiver: ChildProcess = spawn('python3', ['-c', RECEIVE_DGRAM, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let received = '';
    const ready = new Promise<void>((resolve, reject) => {
      receiver.stdout?.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        if (received.startsWith('ready\n')) resolve();
      });
      receiver.on('exit', () => reject(new Error(`the receiver ended: ${received}`)));
    });
    const ended = new Promise<void>((resolve) => receiver.on('exit', () => resolve()));
    try {
      await ready;
      const fromOutside = await runOutside('python3', ['-c', SEND_DGRAM, path, 'outside']);
      assert.equal(fromOutside.stdout, 'SENT\n', fromOutside.stderr);
      const fromInside = await fixture.run(`python3 -c '${SEND_DGRAM}' ${path} inside`, { network: true });
      assert.match(fromInside.output, /^REFUSED Operation not permitted$/m);
      // The end marker comes after anything the sandbox could have sent.
      await runOutside('python3', ['-c', END_DGRAM, path]);
      await ended;
      assert.equal(received, 'ready\nhello from outside\nend\n');
    } finally {
      receiver.kill();
    }
  });

  test('node child processes still work inside: execFileSync with pipes, spawn with an IPC channel', async () => {
    const result = await fixture.run(`node -e '${NODE_CHILDREN}'`);
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /^exec: ok$/m);
    assert.match(result.output, /^ipc: 42$/m);
    assert.match(result.output, /^child exit: 0$/m);
  });

  test("Python's multiprocessing with a Pipe still works inside", async () => {
    const result = await fixture.run(`python3 -c '${PYTHON_MULTIPROCESSING}'`);
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /^multiprocessing: 42\nchild exit: 0$/m);
  });
});
