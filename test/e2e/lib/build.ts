// Builds what the extension-host run needs: the extension (node esbuild.mjs) and the
// e2e suite bundle (CommonJS, vscode external).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { isolatedEnv } from './env';
import { E2E_DIR, REPO_ROOT, SETUP_SCRIPT } from './paths';

/**
 * Runs setup.sh (about instant once its stamp is there) outside the calling npm's
 * environment (see env.ts); throws if it fails.
 */
export function ensureSetup(): void {
  const r = spawnSync('bash', [SETUP_SCRIPT], { stdio: 'inherit', env: isolatedEnv() });
  if (r.status !== 0) throw new Error(`test/e2e/setup.sh failed (exit ${r.status ?? r.signal})`);
}

/**
 * The extension folder under test: E2E_EXTENSION_PATH if set, else the repo root,
 * built with `node esbuild.mjs` first (skip with E2E_SKIP_BUILD=1).
 */
export function buildExtension(): string {
  const override = process.env.E2E_EXTENSION_PATH;
  if (override) return path.resolve(override);
  if (process.env.E2E_SKIP_BUILD !== '1') {
    if (!existsSync(path.join(REPO_ROOT, 'src', 'extension.ts'))) {
      throw new Error('src/extension.ts does not exist yet: nothing to build (set E2E_EXTENSION_PATH to try another extension folder)');
    }
    const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`node esbuild.mjs failed (exit ${r.status ?? r.signal})`);
  }
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing');
  return REPO_ROOT;
}

/** Bundles test/e2e/suite/index.ts to one CommonJS file in a temp folder; returns its path. */
export async function bundleSuite(outDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-suite-'))): Promise<string> {
  const outfile = path.join(outDir, 'suite.js');
  await esbuild.build({
    entryPoints: [path.join(E2E_DIR, 'suite', 'index.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile,
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outfile;
}
