// The workspace of the race tests (issue 21, finding 4): `dir` (a folder) and `f.txt` (a file) are
// re-pointed between the workspace and an outside folder, and `g.txt` between a workspace file and the
// workspace's own .git/config, by a real process, for as long as each test runs.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { silentLogger } from '../../../src/base/common/ports';
import { allTools } from '../../../src/tools/common/registry';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startFlipper, stopFlipper } from './linkFlipper';

export const signal = new AbortController().signal;
export const GIT_CONFIG = '[core]\n\tbare = false\n';
const OUTSIDE_FILE = 'OUTSIDE CANARY\n';

export interface RaceWorkspace {
  root: string;
  outside: string;
  ctx: ToolContext;
  /** Runs a tool as the engine does (prepare, then execute); an exception is a failed call. */
  call(name: string, args: unknown): Promise<{ ok: boolean; output: string }>;
  /** Stops the flipping process, so what is on disk can be compared. */
  settle(): Promise<void>;
  /** The canaries that changed since the last call (each put back): .git/config, outside/file.txt, outside/new.txt. */
  canariesChanged(): Promise<string[]>;
}

/** Registers the hooks that make a fresh race workspace (and its flipping process) for each test of the file. */
export function raceWorkspace(): RaceWorkspace {
  let flipper: ChildProcess | undefined;
  let base = '';
  const ws: RaceWorkspace = {
    root: '',
    outside: '',
    ctx: undefined as unknown as ToolContext,
    call: async (name, args) => {
      try {
        const prepared = await allTools.find((tool) => tool.name === name)!.prepare(args, ws.ctx, signal);
        return await prepared.execute(signal);
      } catch (error) {
        return { ok: false, output: String(error) };
      }
    },
    settle: async () => {
      if (flipper) await stopFlipper(flipper);
      flipper = undefined;
    },
    canariesChanged: async () => {
      const changed: string[] = [];
      if ((await readFile(join(ws.root, '.git', 'config'), 'utf8')) !== GIT_CONFIG) {
        changed.push('.git/config');
        await writeFile(join(ws.root, '.git', 'config'), GIT_CONFIG);
      }
      if ((await readFile(join(ws.outside, 'file.txt'), 'utf8').catch(() => undefined)) !== OUTSIDE_FILE) {
        changed.push('outside/file.txt');
        await writeFile(join(ws.outside, 'file.txt'), OUTSIDE_FILE);
      }
      if (!existsSync(join(ws.outside, 'new.txt'))) {
        changed.push('outside/new.txt');
        await writeFile(join(ws.outside, 'new.txt'), 'OUTSIDE NEW\n');
      }
      return changed;
    },
  };
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tools-races-')));
    ws.root = join(base, 'workspace');
    ws.outside = join(base, 'outside');
    const { root, outside } = ws;
    await mkdir(join(root, 'real'), { recursive: true });
    await mkdir(join(root, '.git'));
    await mkdir(join(outside, '.git'), { recursive: true });
    await writeFile(join(root, 'real', 'file.txt'), 'inside\n');
    await writeFile(join(root, 'real', 'g.txt'), 'g inside\n');
    await writeFile(join(root, 'real', 'AGENTS.md'), 'inside rules\n');
    await writeFile(join(root, '.git', 'config'), GIT_CONFIG);
    await writeFile(join(outside, 'file.txt'), OUTSIDE_FILE);
    await writeFile(join(outside, 'new.txt'), 'OUTSIDE NEW\n');
    await writeFile(join(outside, 'AGENTS.md'), 'OUTSIDE RULES\n');
    await writeFile(join(outside, '.git', 'config'), '[core]\n\thooksPath = /outside\n');
    ws.ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
    };
    flipper = startFlipper(root, [
      { name: 'dir', targets: ['real', '../outside'] },
      { name: 'f.txt', targets: ['real/file.txt', '../outside/file.txt'] },
      { name: 'g.txt', targets: ['real/g.txt', '.git/config'] },
    ]);
  });
  afterEach(async () => {
    await ws.settle();
    await rm(base, { recursive: true, force: true });
  });
  return ws;
}
