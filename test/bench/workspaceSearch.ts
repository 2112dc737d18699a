/**
 * list_files and search_text on a large workspace, against bare ripgrep on the
 * same folder in the same run (issue 15: target within 2× of bare rg).
 *
 * The workspace: two copies of the project's installed packages (node_modules,
 * renamed so the "always ignored" rule does not hide them) in a temporary git
 * repository, with .gitignore files at the root and deeper down. Bare rg runs
 * there with the flags that give it the same files (a git repository, so the
 * ignore files apply without flags; hidden files; the 1 MB size limit) and its
 * plain output read to the end; the tools run through their real prepare and
 * execute on the ripgrep port. Rounds are interleaved, medians compared; the
 * first round's ratio is printed too (search_text reuses its listing of every
 * file, which counts the files too large to search, for 10 s: later rounds do
 * without it, as an agent's next searches do). Each rg found is measured
 * against itself: the one VS Code ships (from the e2e rig's code-server, the
 * engine users get) and Debian's (the unit tests').
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { allTools } from '../../src/tools/common/registry';
import { type ToolContext } from '../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { silentLogger } from '../../src/base/common/ports';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { RipgrepSearch } from '../../src/tools/node/ripgrep';
import { findRipgrepOnPath, findVsCodeRipgrep } from '../../src/tools/node/ripgrepLocator';
import { fmt, median } from './stats';

const rounds = 7;

interface Case {
  name: string;
  tool: 'search_text' | 'list_files';
  args: Record<string, unknown>;
  /** The bare rg that finds the same thing. */
  bare: string[];
}

const cases: Case[] = [
  {
    name: 'search_text plain, few matches',
    tool: 'search_text',
    args: { pattern: 'createProgramFromConfigFile' },
    bare: ['-n', '-F', '-e', 'createProgramFromConfigFile'],
  },
  { name: 'search_text plain, many matches', tool: 'search_text', args: { pattern: 'function' }, bare: ['-n', '-F', '-e', 'function'] },
  { name: 'search_text regex, few matches', tool: 'search_text', args: { pattern: '/class \\w+Parser\\b/' }, bare: ['-n', '-e', 'class \\w+Parser\\b'] },
  {
    name: 'search_text regex, many matches',
    tool: 'search_text',
    args: { pattern: '/\\bconst \\w+ = require\\(/' },
    bare: ['-n', '-e', '\\bconst \\w+ = require\\('],
  },
  {
    name: 'search_text no match, *.ts only',
    tool: 'search_text',
    args: { pattern: 'zz_no_such_text_zz', glob: '**/*.ts' },
    bare: ['-n', '-F', '-g', '*.ts', '-e', 'zz_no_such_text_zz'],
  },
  { name: 'list_files (whole workspace)', tool: 'list_files', args: {}, bare: ['--files'] },
  { name: 'list_files **/*.d.ts', tool: 'list_files', args: { glob: '**/*.d.ts' }, bare: ['--files', '-g', '*.d.ts'] },
];

export async function measureWorkspaceSearch(): Promise<void> {
  const engines = ripgreps();
  if (engines.length === 0) {
    console.log('\nWorkspace search: no rg on the PATH (apt-get install ripgrep, or npm run e2e:setup); not measured');
    return;
  }
  const root = await mkdtemp(join(tmpdir(), 'bench-search-'));
  try {
    const size = await buildWorkspace(root);
    console.log(
      `\nWorkspace search: ${size.files.toLocaleString('en-US')} files, ${fmt(size.bytes / 1e6, 0)} MB (two copies of node_modules, nested .gitignore files), ${rounds} interleaved rounds, medians`,
    );
    for (const { name, rg } of engines) await measureEngine(root, name, rg);
    const ctx = toolContext(root, undefined);
    const walkStarted = performance.now();
    const walked = await runTool(ctx, cases[0]);
    console.log(
      `  for reference, the JavaScript walk (the fallback) on "${cases[0].name}": ${fmt((performance.now() - walkStarted) / 1000, 1)} s [${walked.split('\n').at(-1)!.slice(0, 90)}]`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The rg VS Code ships (in the e2e rig's code-server, when installed) and Debian's, each measured against itself. */
function ripgreps(): { name: string; rg: string }[] {
  const cache = process.env.GATEWAY_E2E_CACHE ?? join(homedir(), '.cache/gateway-e2e');
  const vscode = findVsCodeRipgrep(join(cache, 'code-server/node_modules/code-server/lib/vscode'));
  const debian = findRipgrepOnPath();
  return [...(vscode ? [{ name: "VS Code's rg (code-server 4.139.1)", rg: vscode }] : []), ...(debian ? [{ name: "Debian's rg", rg: debian }] : [])];
}

function toolContext(root: string, rg: string | undefined): ToolContext {
  return {
    files: new NodeWorkspaceFiles(root),
    changes: new NodeFileChanges(root),
    commands: new NodeCommandRunner(root),
    protectedFiles: defaultProtectedFiles,
    logger: silentLogger,
    search: rg === undefined ? undefined : new RipgrepSearch(rg, root),
  };
}

async function measureEngine(root: string, name: string, rg: string): Promise<void> {
  const version = spawnSync(rg, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  console.log(`  ${name}, ${version}: bare \`rg --hidden --max-filesize 1M …\` in the folder (a git repository), plain output read to the end`);
  const ctx = toolContext(root, rg);
  for (const c of cases) {
    const tool: number[] = [];
    const bare: number[] = [];
    let answer = '';
    for (let round = 0; round < rounds; round++) {
      bare.push(await timeBare(rg, root, c.bare));
      const started = performance.now();
      answer = await runTool(ctx, c);
      tool.push(performance.now() - started);
    }
    const coldRatio = tool[0] / bare[0];
    const lines = answer.split('\n');
    const summary = lines.length > 1 ? `${lines.length} lines: ${lines.at(-1)!.slice(0, 60)}` : lines[0].slice(0, 80);
    console.log(
      `    ${c.name.padEnd(34)} tool ${fmt(median(tool), 0).padStart(5)} ms   bare rg ${fmt(median(bare), 0).padStart(5)} ms   ${fmt(median(tool) / median(bare))}× bare   (target ≤ 2×; first round ${fmt(coldRatio)}×)   [${summary}]`,
    );
  }
}

async function runTool(ctx: ToolContext, c: Case): Promise<string> {
  const signal = new AbortController().signal;
  const prepared = await allTools.find((tool) => tool.name === c.tool)!.prepare(c.args, ctx, signal);
  const outcome = await prepared.execute(signal);
  if (!outcome.ok) throw new Error(`${c.name}: ${outcome.output}`);
  return outcome.output;
}

function timeBare(rg: string, root: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(rg, ['--hidden', '--max-filesize', '1M', ...args, '--', '.'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.once('error', reject);
    child.once('close', () => resolve(performance.now() - started));
  });
}

/** Two copies of node_modules, a git repository, and ignore files at three depths. */
async function buildWorkspace(root: string): Promise<{ files: number; bytes: number }> {
  const modules = join(__dirname, '../../node_modules');
  await cp(modules, join(root, 'vendor-a'), { recursive: true, verbatimSymlinks: true });
  await cp(modules, join(root, 'vendor-b'), { recursive: true, verbatimSymlinks: true });
  spawnSync('git', ['init', '-q'], { cwd: root });
  await writeFile(join(root, '.gitignore'), '*.min.js\n/vendor-b/.bin/\n');
  await writeFile(join(root, 'vendor-a/.gitignore'), '**/test/\n*.map\n');
  await writeFile(join(root, 'vendor-b/typescript/.gitignore'), '/lib/*.d.ts\n!/lib/typescript.d.ts\n');
  return sizeOf(root);
}

async function sizeOf(folder: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}
