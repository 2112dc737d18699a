/**
 * The folders around a sandboxed command: which of the machine's runtime
 * folders are emptied inside (where services keep their sockets) and what
 * stays readable in them, and the removal of a session's private folder.
 */
import { chmod, lstat, readdir, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isWithin } from '../common/sandbox';

/** Entries made removable at most when a session's folder resists removal. */
const removalLimit = 100_000;

/**
 * Where the sockets of this machine's services live, emptied inside: /run (D-Bus,
 * docker.sock, /run/user) and $XDG_RUNTIME_DIR wherever it is; and what must stay
 * readable in them: /etc/resolv.conf's target (systemd-resolved keeps it in /run)
 * and NixOS's /run/current-system (its programs).
 */
export async function runtimeFolders(env: NodeJS.ProcessEnv): Promise<{ emptied: string[]; kept: string[] }> {
  const emptied: string[] = [];
  for (const candidate of ['/run', '/var/run', env.XDG_RUNTIME_DIR]) {
    if (!candidate?.startsWith('/')) continue;
    const real = await realpath(candidate).catch(() => undefined);
    // /tmp is already the session's own folder; a folder inside one already emptied needs nothing more.
    if (!real || real === '/' || isWithin(real, '/tmp') || emptied.some((folder) => isWithin(real, folder))) continue;
    if (await isFolder(real)) emptied.push(real);
  }
  const kept: string[] = [];
  for (const candidate of ['/etc/resolv.conf', '/run/current-system']) {
    const real = await realpath(candidate).catch(() => undefined);
    if (!real) continue;
    // resolv.conf is kept where its link leads; a link inside an emptied folder (NixOS's
    // /run/current-system) is bound at its own path, bwrap following it to what it names.
    if (emptied.some((folder) => isWithin(real, folder))) kept.push(real);
    else if (emptied.some((folder) => isWithin(candidate, folder))) kept.push(candidate);
  }
  return { emptied, kept: [...new Set(kept)] };
}

/** The shell, unless it lives in the home folder (hidden inside): then /bin/sh. */
export function shellOutside(shell: string | undefined, home: string): string {
  return shell?.startsWith('/') && !isWithin(shell, home) ? shell : '/bin/sh';
}

/**
 * Removes a session's folder, also what a command made unreadable (`chmod 000`)
 * inside it. Links are never followed: a command may leave one to anywhere.
 */
export async function removeTree(folder: string): Promise<void> {
  try {
    await rm(folder, { recursive: true, force: true });
  } catch {
    await makeRemovable(folder, { left: removalLimit });
    await rm(folder, { recursive: true, force: true });
  }
}

async function makeRemovable(folder: string, budget: { left: number }): Promise<void> {
  const info = await lstat(folder).catch(() => undefined);
  if (!info?.isDirectory() || --budget.left < 0) return;
  await chmod(folder, 0o700).catch(() => undefined);
  for (const name of await readdir(folder).catch(() => [])) await makeRemovable(join(folder, name), budget);
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
