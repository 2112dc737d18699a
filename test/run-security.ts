// `npm run test:security`: every test/security/*.test.ts (the sandbox attacked for real: real bubblewrap, real
// processes), with node's test runner and its usual summary (ℹ pass N, ℹ fail N).
//
// They must run as an ordinary user, as the extension does: root skips what a user namespace restricts (and
// may read or kill anything, so an escape would not show). Run as root (CI on a fresh machine), this script
// makes a system user (gateway-sandbox) if there is none and runs the tests as that user with runuser. That
// user may not be able to read the repository (it may sit under /root): each test file is bundled by esbuild,
// sources and libraries included, into a fresh folder anyone can read, and node itself is copied there when
// that user cannot run the one running this script.
//
// Arguments: test files (test/security/x.test.ts) run only those; anything else goes to `node --test`.
import * as esbuild from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..');
const securityDir = join(root, 'test', 'security');
/** The unprivileged user the tests run as when this script runs as root. */
const TEST_USER = process.env.GATEWAY_SECURITY_TEST_USER || 'gateway-sandbox';
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function testFiles(args: string[]): string[] {
  const named = args.filter((arg) => arg.endsWith('.test.ts')).map((arg) => resolve(arg));
  if (named.length > 0) return named;
  return readdirSync(securityDir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => join(securityDir, name));
}

/** Each test file as one self-contained CommonJS file (nothing read from the repository or node_modules at run time). */
async function bundle(sources: string[], outdir: string): Promise<string[]> {
  await esbuild.build({
    entryPoints: sources,
    outbase: root,
    outdir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    logOverride: { 'empty-import-meta': 'error' },
    logLevel: 'warning',
  });
  return sources.map((source) => join(outdir, relative(root, source)).replace(/\.ts$/, '.js'));
}

/** Readable (and folders enterable) by anyone: the test user must load the bundles. */
function openUp(path: string): void {
  chmodSync(path, 0o755);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) openUp(child);
    else chmodSync(child, 0o644);
  }
}

function ensureUser(name: string): { uid: number; gid: number } {
  const ids = () => {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : undefined;
  };
  const found = ids();
  if (found) return found;
  const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name], {
    encoding: 'utf8',
  });
  const created = ids();
  if (!created) throw new Error(`could not create the test user ${name}: ${made.stderr || made.error?.message || `exit ${made.status}`}`);
  console.log(`made the system user ${name} (uid ${created.uid}) to run the security tests as`);
  return created;
}

/** A node the test user can run: this one, or a copy in the run's folder. */
function nodeFor(user: string, outdir: string): string {
  const check = spawnSync('runuser', ['-u', user, '--', process.execPath, '--version'], { encoding: 'utf8' });
  if (check.status === 0) return process.execPath;
  const copy = join(outdir, 'node');
  copyFileSync(process.execPath, copy);
  chmodSync(copy, 0o755);
  return copy;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
    const stop = (signal: NodeJS.Signals) => child.kill(signal);
    process.once('SIGINT', stop).once('SIGTERM', stop);
    child.on('error', (error) => {
      console.error(`${command} could not be started: ${error.message}`);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const outdir = mkdtempSync(join(tmpdir(), 'gateway-security-'));
  try {
    const compiled = await bundle(testFiles(args), outdir);
    const nodeArgs = ['--enable-source-maps', '--test', '--test-reporter=spec', ...args.filter((arg) => !arg.endsWith('.test.ts')), ...compiled];
    if (process.getuid?.() !== 0) return await run(process.execPath, nodeArgs, process.env, outdir);
    const { uid, gid } = ensureUser(TEST_USER);
    const home = join(outdir, 'home');
    mkdirSync(home);
    openUp(outdir);
    chownSync(home, uid, gid);
    const node = nodeFor(TEST_USER, outdir);
    console.log(`running as root: the security tests run as ${TEST_USER}`);
    // A clean environment: nothing of root's (its PATH into /root, its tokens) reaches the tests.
    const env: NodeJS.ProcessEnv = {
      PATH: `${dirname(node)}:${SYSTEM_PATH}`,
      HOME: home,
      USER: TEST_USER,
      LOGNAME: TEST_USER,
      LANG: process.env.LANG ?? 'C.UTF-8',
    };
    if (process.env.CI) env.CI = process.env.CI;
    return await run('runuser', ['-u', TEST_USER, '--', node, ...nodeArgs], env, outdir);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
