// `npm run test:unit`: every test/unit/<feature>/*.test.ts, compiled once by esbuild into a throw-away folder under
// node_modules/.cache, then run by `node --test` in a few processes that share a queue of files
// (test/run-unit-worker.ts). Started one process and one tsx a file, the ~60 files spent more CPU time
// starting node and loading the same sources again than running tests. Source maps point failures at the
// .ts lines. One file the quick way still works as before: `node --require tsx/cjs --test test/unit/<feature>/x.test.ts`.
//
// `npm run test:integration` runs test/integration/*.test.ts the same way (`--suite=integration`): the tests that
// spend their time in real processes, real file systems and real sockets (races between a tool and a process
// flipping links, ripgrep and the walk over hundreds of files, the recordings replayed byte by byte over HTTP,
// this runner itself started as a command),
// so that the unit stage stays quick enough to run on every change.
//
// Arguments: test files (test/unit/<feature>/x.test.ts) run only those; anything else goes to `node --test`
// (for example --test-name-pattern=...).
import * as esbuild from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FileCost, TestQueue } from './run-unit-worker';

const root = resolve(__dirname, '..');
/** `unit` (test/unit) or `integration` (test/integration), from `--suite=`. */
const suite = process.argv.find((arg) => arg.startsWith('--suite='))?.slice('--suite='.length) ?? 'unit';
if (suite !== 'unit' && suite !== 'integration') throw new Error(`--suite=${suite}: the suites are unit and integration.`);
const unitDir = join(root, 'test', suite);
const cache = join(root, 'node_modules', '.cache', `${suite}-tests`);
/** Each file's milliseconds in the last run, to start the longest first. */
const durationsFile = join(cache, 'durations.json');
/** Test processes (GATEWAY_UNIT_TEST_PROCESSES to change): on 2 cores 3 measured fastest (the tests also wait on sockets and child processes). */
const PROCESSES = Number(process.env.GATEWAY_UNIT_TEST_PROCESSES) || 3;

/**
 * A bundle's `__dirname` would be the cache folder; a test that finds its data next to its source
 * (`join(__dirname, '..', 'conformance')`) gets the source's own folder instead. Declared on the first
 * line, so every line number in the source map stays as it is.
 */
const sourceLocation: esbuild.Plugin = {
  name: 'source-location',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!args.path.startsWith(root + sep) || args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(source)) return undefined;
      const prelude = `const __dirname = ${JSON.stringify(dirname(args.path))}, __filename = ${JSON.stringify(args.path)}; `;
      return { contents: prelude + source, loader: 'ts' };
    });
  },
};

function testFiles(args: string[]): string[] {
  const named = args.filter((arg) => arg.endsWith('.test.ts')).map((arg) => resolve(arg));
  if (named.length > 0) return named;
  // test/unit/<feature>/*.test.ts (and test/integration/*.test.ts): every test file of the suite, at any depth.
  return (
    (readdirSync(unitDir, { recursive: true }) as string[])
      // The runner's own fixtures fail on purpose: test/integration/unit-runner.test.ts runs them.
      .filter((name) => name.endsWith('.test.ts') && !name.startsWith(`runner-fixtures${sep}`))
      .sort()
      .map((name) => join(unitDir, name))
  );
}

/**
 * The emulator's command line, compiled with the tests: the tests that start it as a process run this copy
 * (GATEWAY_EMULATOR_CLI, see test/unit/helpers/emulatorCli.ts) instead of having tsx compile it again each time.
 */
const emulatorMain = join(root, 'test', 'emulator', 'main.ts');

/** One bundle a test file (each with its own copy of the sources, as a process of its own had), the worker and the emulator's CLI. */
async function build(sources: string[], outdir: string): Promise<{ compiled: string[]; worker: string; emulatorCli: string }> {
  const worker = join(root, 'test', 'run-unit-worker.ts');
  await esbuild.build({
    entryPoints: [...sources, worker, emulatorMain],
    outbase: root,
    outdir,
    bundle: true,
    // Libraries load from node_modules as in the extension; only the project's own TypeScript is compiled.
    packages: 'external',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [sourceLocation],
    // `import.meta` is empty in CommonJS output: use __dirname (see sourceLocation).
    logOverride: { 'empty-import-meta': 'error' },
    logLevel: 'warning',
  });
  const output = (file: string) => join(outdir, relative(root, file)).replace(/\.ts$/, '.js');
  return { compiled: sources.map(output), worker: output(worker), emulatorCli: output(emulatorMain) };
}

function lastDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

const sourceName = (file: string) => relative(root, file).split(sep).join('/');

/** The queue the workers share, the longest file (as last measured) first; a file not measured yet counts as long. */
function writeQueue(sources: string[], compiled: string[], outdir: string): TestQueue {
  const durations = lastDurations();
  const cost = (source: string) => durations[source] ?? Number.POSITIVE_INFINITY;
  const files = sources.map((source, index) => ({ source: sourceName(source), compiled: compiled[index] })).sort((a, b) => cost(b.source) - cost(a.source));
  const queue: TestQueue = { files, claims: join(outdir, 'claims') };
  mkdirSync(queue.claims);
  writeFileSync(join(outdir, 'queue.json'), JSON.stringify(queue));
  return queue;
}

/** Files listed by name in the CPU report (GATEWAY_UNIT_TEST_CPU_REPORT=all lists every file). */
const CPU_REPORT_FILES = process.env.GATEWAY_UNIT_TEST_CPU_REPORT === 'all' ? Number.POSITIVE_INFINITY : 8;

/**
 * The CPU seconds the files took, the costliest first: on a machine others share, wall times say little about
 * which file to make cheaper, CPU times do not change with the load.
 */
function reportCpu(costs: Map<string, FileCost>): void {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const sorted = [...costs].sort(([, a], [, b]) => b.cpuMs - a.cpuMs);
  const total = sorted.reduce((sum, [, cost]) => sum + cost.cpuMs, 0);
  console.log(`ℹ CPU seconds in the test files: ${seconds(total)} (costliest first)`);
  for (const [source, cost] of sorted.slice(0, CPU_REPORT_FILES)) console.log(`ℹ   ${seconds(cost.cpuMs).padStart(5)}  ${source}`);
}

/** Every file must have run to its end: a worker that died, or a node:test that filed a suite elsewhere, fails the run. */
function checkEveryFileRan(queue: TestQueue): boolean {
  const durations = lastDurations();
  const costs = new Map<string, FileCost>();
  const missing: string[] = [];
  queue.files.forEach((file, index) => {
    const done = join(queue.claims, `${index}.done`);
    if (!existsSync(done)) {
      missing.push(file.source);
      return;
    }
    const cost = JSON.parse(readFileSync(done, 'utf8')) as FileCost;
    durations[file.source] = cost.ms;
    costs.set(file.source, cost);
  });
  writeFileSync(durationsFile, JSON.stringify(durations, null, 1));
  reportCpu(costs);
  for (const source of missing) console.error(`✖ ${source} did not run to its end (see the output above)`);
  return missing.length === 0;
}

/** Once every file has run to its end, how long the workers have to report and exit before they are stopped. */
const EXIT_GRACE_MS = 30_000;

function runWorkers(workerCopies: string[], outdir: string, options: { nodeArgs: string[]; emulatorCli: string; allRan: () => boolean }): Promise<number> {
  // No --test-force-exit: with it, a worker's last file could end the process before its results reached the
  // reporter (measured: 2 runs in 3 reported 1,424 of 1,428 tests, exit code 0). A worker still busy once every
  // file has run to its end (seen once, not since) is stopped after EXIT_GRACE_MS instead.
  const args = ['--enable-source-maps', '--test', `--test-concurrency=${workerCopies.length}`, '--test-reporter=spec', ...options.nodeArgs, ...workerCopies];
  return new Promise((done) => {
    const env = { ...process.env, GATEWAY_UNIT_TEST_QUEUE: join(outdir, 'queue.json'), GATEWAY_EMULATOR_CLI: options.emulatorCli };
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
    const stop = (signal: NodeJS.Signals) => child.kill(signal);
    process.once('SIGINT', stop).once('SIGTERM', stop);
    let grace: NodeJS.Timeout | undefined;
    const watch = setInterval(() => {
      if (grace !== undefined || !options.allRan()) return;
      grace = setTimeout(() => {
        console.error(`✖ every test file ran, but the workers had not exited ${EXIT_GRACE_MS / 1000} s later: stopped`);
        child.kill('SIGTERM');
      }, EXIT_GRACE_MS);
    }, 1000);
    child.on('close', (code, signal) => {
      clearInterval(watch);
      clearTimeout(grace);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

/** Folders of runs that were killed before they could remove their own (a day old: no run takes that long). */
function removeAbandonedRuns(): void {
  for (const name of readdirSync(cache)) {
    const folder = join(cache, name);
    if (name.startsWith('run-') && Date.now() - statSync(folder).mtimeMs > 24 * 3600_000) rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--suite='));
  mkdirSync(cache, { recursive: true });
  removeAbandonedRuns();
  // A folder of its own: two runs at once (npm test beside a developer's run) never read each other's files.
  const outdir = mkdtempSync(join(cache, 'run-'));
  try {
    const sources = testFiles(args);
    const { compiled, worker, emulatorCli } = await build(sources, outdir);
    const queue = writeQueue(sources, compiled, outdir);
    // `node --test` runs each path once: one copy of the worker a process.
    const copies = Array.from({ length: Math.min(PROCESSES, sources.length) }, (_, index) => {
      const copy = join(outdir, `worker-${index + 1}.js`);
      writeFileSync(copy, `require(${JSON.stringify(worker)});\n`);
      return copy;
    });
    const allRan = () => queue.files.every((_, index) => existsSync(join(queue.claims, `${index}.done`)));
    const code = await runWorkers(copies, outdir, { nodeArgs: args.filter((arg) => !arg.endsWith('.test.ts')), emulatorCli, allRan });
    return checkEveryFileRan(queue) ? code : 1;
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
