/**
 * `npm run bench -- sandbox` (issue 36): what the `auto` sandbox adds to a command, on a 40,000-file
 * workspace, against the same command run unsandboxed in the same run: the whole path the extension takes
 * (the change layer made and armed, the launch, the command, the review of what it changed and the landing).
 * Targets: a sandboxed `true` within 30 ms of the unsandboxed one; each changed file within 1 ms more.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { BubblewrapSandbox } from '../../src/terminal/node/bubblewrap';
import { NodeControlGuard } from '../../src/terminal/node/controlGuard';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { fmt, median } from './stats';

const FILES = 40_000;
const PER_FOLDER = 100;
const ROUNDS = 15;
const CHANGED = 200;
const never = new AbortController().signal;

async function makeWorkspace(root: string): Promise<void> {
  for (let folder = 0; folder < FILES / PER_FOLDER; folder++) {
    const path = join(root, 'src', `m${folder}`);
    await mkdir(path, { recursive: true });
    await Promise.all(Array.from({ length: PER_FOLDER }, (_, file) => writeFile(join(path, `f${file}.ts`), `export const v${file} = ${folder};\n`)));
  }
  await writeFile(join(root, '.env'), 'SECRET=1\n');
}

export async function measureSandboxCost(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'gw-bench-sandbox-')));
  try {
    const home = join(base, 'home');
    const root = join(base, 'workspace');
    await mkdir(home, { recursive: true });
    await makeWorkspace(root);
    const sandbox = new BubblewrapSandbox({ home, shell: '/bin/sh', tempRoot: base });
    const available = await sandbox.available();
    console.log(`\nThe auto sandbox's cost per command (issue 36): ${FILES} files in the workspace, median of ${ROUNDS} rounds each, interleaved`);
    if (!available.ok) {
      console.log(`  no sandbox here: ${available.reason}`);
      return;
    }
    const session = sandbox.forSession('bench');
    const guard = new NodeControlGuard({
      root,
      quarantineFolder: join(base, 'changes'),
      layers: sandbox.layersFor('bench'),
      protectedFiles: () => defaultProtectedFiles,
      willSandbox: () => true,
      home,
    });
    const plain = new NodeCommandRunner(root, { shell: '/bin/sh' });
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const phases = { layer: [] as number[], launch: [] as number[], run: [] as number[], review: [] as number[] };
    const boxedPhases = new NodeCommandRunner(root, {
      shell: '/bin/sh',
      sandbox: {
        launch: async (command, cwd, signal) => {
          const started = performance.now();
          const launch = await session.launch({ root, cwd, command, protectedFiles: defaultProtectedFiles, network: false }, signal);
          phases.launch.push(performance.now() - started);
          return launch;
        },
      },
    });
    const sandboxed = (command: string) =>
      timed(async () => {
        const t0 = performance.now();
        const watch = await guard.watch(never);
        const t1 = performance.now();
        await boxedPhases.run(command, '.', 60_000, never);
        const t2 = performance.now();
        await watch?.settle(never);
        const t3 = performance.now();
        phases.layer.push(t1 - t0);
        phases.run.push(t2 - t1);
        phases.review.push(t3 - t2);
      });
    const writeMany = (round: number) => `mkdir -p out${round} && for i in $(seq 1 ${CHANGED}); do echo $i > out${round}/$i.txt; done`;
    // One of each first: the probe, the first walk, the page cache.
    await sandboxed('true');
    await plain.run('true', '.', 60_000, never);
    // A command after one that changed files reads the folders those changes made (the protected-file look): that
    // read is the changed files' cost, so it is measured apart (trueAfterMany) and counted per file, and the
    // per-command overhead is a `true` after a `true`.
    const times = {
      plainTrue: [] as number[],
      boxTrue: [] as number[],
      plainMany: [] as number[],
      boxMany: [] as number[],
      plainTrueAfterMany: [] as number[],
      boxTrueAfterMany: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round++) {
      times.plainTrue.push(await timed(() => plain.run('true', '.', 60_000, never)));
      times.boxTrue.push(await sandboxed('true'));
      times.plainMany.push(await timed(() => plain.run(writeMany(round), '.', 60_000, never)));
      times.plainTrueAfterMany.push(await timed(() => plain.run('true', '.', 60_000, never)));
      times.boxMany.push(await sandboxed(writeMany(ROUNDS + round)));
      times.boxTrueAfterMany.push(await sandboxed('true'));
    }
    const m = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)])) as Record<keyof typeof times, number>;
    const overhead = m.boxTrue - m.plainTrue;
    const perFile = (m.boxMany + m.boxTrueAfterMany - m.plainMany - m.plainTrueAfterMany - 2 * overhead) / CHANGED;
    console.log(`  \`true\` unsandboxed                 ${fmt(m.plainTrue, 1)} ms   (baseline)`);
    console.log(`  \`true\` sandboxed, reviewed         ${fmt(m.boxTrue, 1)} ms   ${fmt(overhead, 1)} ms over the baseline (target ≤ 30 ms)`);
    console.log(`  ${CHANGED} new files unsandboxed          ${fmt(m.plainMany, 1)} ms`);
    console.log(
      `  ${CHANGED} new files sandboxed, landed     ${fmt(m.boxMany, 1)} ms, the next \`true\` ${fmt(m.boxTrueAfterMany, 1)} ms   ${fmt(perFile, 3)} ms more per changed file (target ≤ 1 ms)`,
    );
    const p = (values: number[]) => fmt(median(values), 1);
    console.log(
      `  where a sandboxed command's time goes (medians, both commands): layer ${p(phases.layer)} ms, launch (protected files, arguments) ${p(phases.launch)} ms, ` +
        `start to exit (unshare, overlay, bwrap, the command; launch included) ${p(phases.run)} ms, review and landing ${p(phases.review)} ms`,
    );
    sandbox.dispose();
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
