// A real process that keeps re-pointing symlinks in a test workspace, as a sandboxed command left
// running could: each link is swapped atomically (a new link renamed over the old one), as fast as
// the shell can, until the test kills it. And the bounded loop a race test runs against it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** A link at `name` (relative to `cwd`) flipped between two targets. */
export interface Flip {
  name: string;
  targets: [string, string];
}

/** Starts the flipping process; stop it with stopFlipper. */
export function startFlipper(cwd: string, flips: readonly Flip[]): ChildProcess {
  // Every link to its first target, then every link to its second: each points either way half the time.
  const steps = [0, 1].flatMap((j) => flips.map(({ name, targets }, i) => `ln -sfn ${quote(targets[j])} .flip${i}${j} && mv -T .flip${i}${j} ${quote(name)}`));
  // Its own process group, so a stop also kills the `ln` or `mv` it is running at that moment: killing only
  // the shell left that child to create or move one more entry while the test removed the folder (ENOTEMPTY).
  return spawn('sh', ['-c', `while :; do ${steps.join('; ')}; done`], { cwd, stdio: 'ignore', detached: true });
}

export function stopFlipper(flipper: ChildProcess): Promise<void> {
  if (flipper.exitCode !== null || flipper.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    flipper.once('exit', () => resolve());
    try {
      process.kill(-(flipper.pid as number), 'SIGKILL');
    } catch {
      flipper.kill('SIGKILL');
    }
  });
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The race loop's bounds: this many attempts, or this long, whichever ends first; past the budget
 * it goes on (up to RACE_CAP_MS) only while no attempt has gone through yet (a loaded machine can
 * starve the flipping process, and a test where nothing went through shows nothing).
 */
export const RACE_ATTEMPTS = 1_000;
export const RACE_BUDGET_MS = 2_500;
export const RACE_CAP_MS = 8_000;

/** Runs `attempt` (true when the operation went through) within those bounds; how many ran and went through. */
export async function raceLoop(attempt: (i: number) => Promise<boolean>): Promise<{ runs: number; through: number }> {
  const start = performance.now();
  let runs = 0;
  let through = 0;
  while (runs < RACE_ATTEMPTS) {
    const elapsed = performance.now() - start;
    if (elapsed > RACE_CAP_MS || (elapsed > RACE_BUDGET_MS && through > 0)) break;
    if (await attempt(runs++)) through++;
  }
  return { runs, through };
}

/** A digest of everything under `folder` (names, link targets, contents), to show nothing there changed. */
export async function treeDigest(folder: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const info = await lstat(path);
      hash.update(`${prefix}${name}\0${info.mode}\0`);
      if (info.isSymbolicLink()) hash.update(await readlink(path));
      else if (info.isDirectory()) await walk(path, `${prefix}${name}/`);
      else hash.update(await readFile(path));
    }
  };
  await walk(folder, '');
  return hash.digest('hex');
}
