/**
 * The sandbox of the `auto` approval mode on this machine: bubblewrap (bwrap),
 * when it is installed and can create namespaces here (a container without
 * user namespaces, or a kernel that forbids them, fails the probe). Finds the
 * paths the core's bwrap arguments need: the workspace's protected files, the
 * home folder's secrets, a private temp folder.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapArguments, homeSecrets } from '../core/terminal/sandbox';
import { protectedPathsIn } from './sandboxWorkspaceScan';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

/** The probe's own time limit: bwrap answers in milliseconds or not at all. */
const probeTimeoutMs = 5000;

export class SandboxUnavailable extends Error {}

export interface BubblewrapOptions {
  /** The bwrap executable; default `bwrap` from PATH. */
  bwrap?: string;
  /** Default the user's home folder. */
  home?: string;
  /** The shell that runs the command inside; default `$SHELL`, else /bin/sh. */
  shell?: string;
}

export class BubblewrapSandbox {
  private probe: Promise<SandboxAvailability> | undefined;
  private tempDir: string | undefined;

  constructor(private readonly options: BubblewrapOptions = {}) {}

  /** Whether commands can run sandboxed here, probed once by running `true` under the same kind of sandbox. */
  available(): Promise<SandboxAvailability> {
    this.probe ??= probeBubblewrap(this.options.bwrap ?? 'bwrap');
    return this.probe;
  }

  /**
   * The argv that runs a command line (appended as the last argument) in the
   * sandbox for `root`, starting in `cwd` (absolute, inside root).
   */
  async commandPrefix(root: string, cwd: string, protectedFiles: readonly string[], network: boolean, signal: AbortSignal): Promise<string[]> {
    const availability = await this.available();
    if (!availability.ok) throw new SandboxUnavailable(availability.reason);
    this.tempDir ??= await mkdtemp(join(tmpdir(), 'gateway-agent-'));
    const inWorkspace = await protectedPathsIn(root, protectedFiles, signal);
    const home = this.options.home ?? homedir();
    const secrets = await existing(homeSecrets.map((path) => join(home, ...path.split('/'))));
    const spec = { workspace: root, tempDir: this.tempDir, cwd, hidden: [...secrets, ...inWorkspace.hidden], readOnly: inWorkspace.readOnly, network };
    const shell = this.options.shell ?? process.env.SHELL ?? '/bin/sh';
    return [this.options.bwrap ?? 'bwrap', ...bubblewrapArguments(spec), shell, '-c'];
  }
}

async function probeBubblewrap(bwrap: string): Promise<SandboxAvailability> {
  if (process.platform !== 'linux') return { ok: false, reason: `the sandbox needs bubblewrap on Linux; this machine runs ${process.platform}` };
  const args = ['--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--', 'true'];
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), probeTimeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(0, 500)));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({
        ok: false,
        reason:
          error.code === 'ENOENT' ? 'bubblewrap (bwrap) is not installed; install the "bubblewrap" package' : `bwrap could not be started: ${error.message}`,
      });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, reason: `bwrap cannot create a sandbox here (${stderr.trim() || `exit code ${code ?? 'none'}`})` });
    });
  });
}

async function existing(paths: string[]): Promise<{ path: string; directory: boolean }[]> {
  const found: { path: string; directory: boolean }[] = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    found.push({ path, directory: await isFolder(path) });
  }
  return found;
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
