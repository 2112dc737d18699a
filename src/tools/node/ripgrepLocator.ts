/**
 * Where a ripgrep binary is. In VS Code, the one VS Code ships, found from
 * `vscode.env.appRoot` (the composition root passes it in). Layouts checked:
 * - code-server 4.139.1 (VS Code 1.139, the e2e rig in ~/.cache/gateway-e2e), and VS Code 1.139 itself, which imports
 *   `@vscode/ripgrep-universal`: `<appRoot>/node_modules/@vscode/ripgrep-universal/bin/<platform>-<arch>/rg`;
 * - desktop builds whose modules are packed in an asar keep the binary beside it, in `node_modules.asar.unpacked/…`
 *   (VS Code itself rewrites `node_modules.asar` to that);
 * - earlier desktop VS Code: `@vscode/ripgrep/bin/rg`, and before that `vscode-ripgrep/bin/rg`, under either folder.
 * Elsewhere (the unit tests, the bench), a `rg` on the PATH: Debian's `ripgrep` package.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** VS Code's ripgrep under `appRoot`, or undefined when none of the known layouts holds one. */
export function findVsCodeRipgrep(appRoot: string, platform: string = process.platform, arch: string = process.arch): string | undefined {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg';
  const packages = [join('@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`), join('@vscode', 'ripgrep', 'bin'), join('vscode-ripgrep', 'bin')];
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    for (const bin of packages) {
      const candidate = join(appRoot, modules, bin, binary);
      if (isExecutable(candidate, platform)) return candidate;
    }
  }
  return undefined;
}

/** The first `rg` on the PATH, or undefined. */
export function findRipgrepOnPath(path: string | undefined = process.env.PATH, platform: string = process.platform): string | undefined {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg';
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, binary);
    if (isExecutable(candidate, platform)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string, platform: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
