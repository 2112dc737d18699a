// Starts code-server (VS Code server + web workbench, installed by setup.sh) on a free
// port with a fresh run folder, in its own process group, and stops the whole group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { isolatedEnv } from './env';
import { assertInstalled, codeServerInstall, LOGS_DIR, type CodeServerInstall } from './paths';

export interface CodeServer {
  /** Which code-server (and VS Code) this is. */
  install: CodeServerInstall;
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** Fresh folder of this run: user data, extensions, XDG folders, the server's log. */
  runDir: string;
  logFile: string;
  /** `vscode-remote://127.0.0.1:PORT/abs/path`: how the web workbench names a server-side path. */
  remoteUri(absPath: string): string;
  /** The last lines of the server's log. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Folder opened by default when the page URL has no ?folder=. */
  workspace?: string;
  /** Extra environment for the server and so for its extension hosts. */
  env?: Record<string, string>;
  extraArgs?: string[];
  /** User settings, merged over DEFAULT_SETTINGS (written to RUN/ud/User/settings.json). */
  settings?: Record<string, unknown>;
  /** Keep the run folder after stop (default: removed unless E2E_KEEP=1). */
  keepRunDir?: boolean;
  /** Echo the server's output to stderr (default: E2E_VERBOSE=1). */
  verbose?: boolean;
  /** Packaged extensions (.vsix) installed into RUN/ext before the server starts. */
  vsix?: string[];
  /** Port to listen on (default: a free one). */
  port?: number;
  /**
   * `--vscode-option enable-smoke-test-driver` (default true): needed for the payload
   * (extensionDevelopmentPath / extensionTestsPath), but it also keeps notification toasts
   * from appearing, so UI checks and the sandbox turn it off.
   */
  smokeTestDriver?: boolean;
  /** Which code-server to run (default: codeServerInstall(), i.e. E2E_CODE_SERVER_VERSION or the newest). */
  install?: CodeServerInstall;
}

/** Quiet, offline-friendly defaults for a test profile. */
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const live = new Set<ChildProcess>();
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}
// A driver that dies or is interrupted must not leave servers and extension hosts behind.
process.on('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    // A driver that handles the signal itself (the sandbox) stops its servers in order.
    if (process.listenerCount(sig) > 0) return;
    for (const child of live) killGroup(child, 'SIGKILL');
    process.exit(130);
  });
}

/** `code-server --install-extension FILE.vsix` into `extensionsDir` (under a second each). */
export function installVsix(vsix: string, extensionsDir: string, userDataDir: string, env: NodeJS.ProcessEnv, install = codeServerInstall()): string {
  const r = spawnSync(
    install.node,
    [install.entry, '--config', '/dev/null', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix, '--force'],
    { env, encoding: 'utf8', timeout: 120_000 },
  );
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status ?? r.signal}):\n${out}`);
  return out;
}

export async function startCodeServer(options: StartOptions = {}): Promise<CodeServer> {
  const install = options.install ?? codeServerInstall();
  assertInstalled(install);
  const port = options.port ?? (await freePort());
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-run-'));
  for (const d of ['ud', 'ext', 'xdg-config', 'xdg-data', 'tmp']) mkdirSync(path.join(runDir, d), { recursive: true });
  mkdirSync(path.join(runDir, 'ud', 'User'), { recursive: true });
  writeFileSync(path.join(runDir, 'ud', 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...options.settings }, null, 2));
  const logFile = path.join(runDir, 'code-server.log');
  const log = createWriteStream(logFile);
  const verbose = options.verbose ?? process.env.E2E_VERBOSE === '1';

  const args = [
    install.entry,
    '--config',
    '/dev/null',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--reconnection-grace-time',
    '5',
    '--user-data-dir',
    path.join(runDir, 'ud'),
    '--extensions-dir',
    path.join(runDir, 'ext'),
    // Without it a released build ignores extensionDevelopmentPath/extensionTestsPath.
    ...(options.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    ...(options.extraArgs ?? []),
    ...(options.workspace ? [options.workspace] : []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...isolatedEnv(),
    ...options.env,
    XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
    // IPC sockets (vscode-ipc-*.sock, vscode-git-*.sock) and temp files go to the run
    // folder, which is removed at stop; in /tmp they would pile up.
    TMPDIR: path.join(runDir, 'tmp'),
    XDG_RUNTIME_DIR: path.join(runDir, 'tmp'),
  };
  try {
    for (const vsix of options.vsix ?? []) {
      const out = installVsix(vsix, path.join(runDir, 'ext'), path.join(runDir, 'ud'), env, install);
      writeFileSync(path.join(runDir, 'install.log'), `${out}\n`, { flag: 'a' });
    }
  } catch (err) {
    if (!(options.keepRunDir || process.env.E2E_KEEP === '1')) rmSync(runDir, { recursive: true, force: true });
    throw err;
  }

  // detached: the child calls setsid(), so it leads a process group of its own and
  // everything it spawns (extension hosts, pty hosts) can be ended together.
  const child = spawn(install.node, args, { cwd: runDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (verbose) process.stderr.write(`[code-server] ${chunk.toString()}`);
    });
  }
  let exited: string | undefined;
  const exitPromise = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = `exited with ${signal ?? code}`;
      live.delete(child);
      resolve();
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  const logTail = (lines = 40) => {
    try {
      return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
    await exitPromise;
    clearTimeout(timer);
    // Extension hosts may outlive the server by a moment: end whatever is left of the group.
    killGroup(child, 'SIGKILL');
    await new Promise<void>((resolve) => log.end(resolve));
    // The run folder goes away; its server log is kept as test/e2e/logs/code-server.log.
    try {
      mkdirSync(LOGS_DIR, { recursive: true });
      copyFileSync(logFile, path.join(LOGS_DIR, 'code-server.log'));
    } catch {
      /* best effort */
    }
    if (!(options.keepRunDir || process.env.E2E_KEEP === '1')) {
      rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    }
  };

  // /healthz answers 200 within about a second.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      const tail = logTail();
      await stop();
      throw new Error(`code-server ${exited} before it was ready:\n${tail}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      const tail = logTail();
      await stop();
      throw new Error(`code-server did not answer ${url}/healthz within 60s:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    install,
    port,
    url,
    runDir,
    logFile,
    remoteUri: (absPath) => `vscode-remote://127.0.0.1:${port}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`,
    logTail,
    stop,
  };
}
