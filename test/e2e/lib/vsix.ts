// Packages the extension the way it ships: `node esbuild.mjs --production`, then
// `vsce package --no-dependencies --allow-missing-repository` into a folder of our own
// (the repo-root gateway.vsix that `npm run package` writes is left alone).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './paths';

const VSCE = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');

function run(cmd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

export interface PackagedVsix {
  file: string;
  /** Problems met on the way that did not stop the packaging. */
  warnings: string[];
}

/** Builds and packages the extension; returns the .vsix path (in `outDir`, a temp folder by default). */
export function packageVsix(outDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-vsix-'))): PackagedVsix {
  if (!existsSync(VSCE)) throw new Error(`${VSCE} is missing: run npm ci`);
  const build = run(process.execPath, ['esbuild.mjs', '--production']);
  if (!build.ok) throw new Error(`node esbuild.mjs --production failed:\n${build.out}`);
  const file = path.join(outDir, 'gateway.vsix');
  // The arguments of `npm run package`. --no-rewrite-relative-links: vsce cannot rewrite the
  // README's relative links without a repository URL, and they are not shipped anyway.
  const pack = run(VSCE, ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', file]);
  const warnings: string[] = [];
  if (!pack.ok || !existsSync(file)) throw new Error(`vsce package failed:\n${pack.out}`);
  return { file, warnings };
}
