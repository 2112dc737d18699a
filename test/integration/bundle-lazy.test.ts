// The production build as `npm run package` makes it, in a temporary folder: the main bundle under its
// ceiling, what activation does not need in files of their own beside it (each required by the bundle,
// each built, each let into the .vsix), the modules moved out absent from the bundle, and the lazy files
// working in plain Node as their sources do (a copy that lost code would answer differently).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import * as extrasSource from '../../src/agent/common/sessions/agentExtras';
import * as customizationSource from '../../src/customization/common/customizationParts';
import type { AgentSessionState } from '../../src/sessionModel/common/sessionState';
import { silentLogger } from '../../src/base/common/ports';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { budgetStatus } from '../../src/usage/common/dailyBudget';
import * as usageHtmlSource from '../../src/usage/common/usageHtml';
import * as telemetrySource from '../../src/telemetry/node/otlpMetrics';
import { summarize } from '../../src/usage/common/usageSummary';

const run = promisify(execFile);
let outdir: string;
let sizeReport: string;
let bundle: string;
let analysis: string;

before(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'gw-bundle-'));
  sizeReport = (await run(process.execPath, ['esbuild.mjs', '--production', '--size', '--outdir', outdir])).stdout;
  analysis = (await run(process.execPath, ['esbuild.mjs', '--production', '--metafile', '--outdir', outdir], { maxBuffer: 16 * 1024 * 1024 })).stdout;
  bundle = readFileSync(join(outdir, 'extension.js'), 'utf8');
});

after(() => rm(outdir, { recursive: true, force: true }));

/** The files the bundle requires beside itself (the loaders' requires, rewritten by esbuild.mjs). */
function lazyFilesRequired(): string[] {
  return [...bundle.matchAll(/require\("\.\/([\w-]+\.js)"\)/g)].map((match) => match[1]).sort();
}

describe('the production bundle and its lazy files', () => {
  test('the main bundle is under its ceiling; --size prints it and each lazy file', () => {
    const main = /^dist\/extension\.js ([\d.]+) KB \(ceiling ([\d.]+) KB\)$/m.exec(sizeReport);
    assert.ok(main, sizeReport);
    assert.ok(Number(main[1]) <= Number(main[2]), sizeReport);
    for (const file of lazyFilesRequired())
      assert.match(sizeReport, new RegExp(`^dist/${file.replace('.', '\\.')} [\\d.]+ KB \\(loaded at first use\\)$`, 'm'));
  });

  test('every file the bundle requires is built beside it and let into the .vsix', () => {
    const files = lazyFilesRequired();
    assert.deepEqual(files, [
      'agent-extras.js',
      'change-review.js',
      'checkpoint-commands.js',
      'customization.js',
      'git-worktrees.js',
      'hook-process.js',
      'ignore.js',
      'inline-edit.js',
      'picomatch.js',
      're2js.js',
      'telemetry.js',
      'usage-page.js',
      'worktree-commands.js',
    ]);
    const shipped = readFileSync('.vscodeignore', 'utf8').split('\n');
    for (const file of files) {
      assert.ok(existsSync(join(outdir, file)), `${file} was not built`);
      assert.ok(shipped.includes(`!dist/${file}`), `${file} is left out of the .vsix`);
    }
  });

  test('the modules moved out are not in the main bundle', () => {
    const moved = [
      'src/customization/common/hooks.ts',
      'src/customization/common/hookConfig.ts',
      'src/customization/common/customAgents.ts',
      'src/customization/common/frontMatter.ts',
      'src/customization/common/skills.ts',
      'src/customization/common/homeSkills.ts',
      'src/customization/common/workspaceAgentFiles.ts',
      'src/customization/node/hookProcess.ts',
      'src/inlineEdit/vscode/inlineEditController.ts',
      'src/usage/common/usageHtml.ts',
      'src/terminal/node/changeLayer.ts',
      'src/terminal/node/repositoryFacts.ts',
      'src/terminal/node/hookPrograms.ts',
      'src/terminal/node/controlGuard.ts',
      'src/terminal/node/gitStructure.ts',
      'src/terminal/node/protectedPathCache.ts',
      'src/terminal/common/changeReview.ts',
      'src/agent/node/gitWorktrees.ts',
      'src/agent/vscode/worktreeCommands.ts',
      'src/agent/vscode/checkpointCommands.ts',
      'node_modules/ignore/',
      'node_modules/picomatch/',
      'node_modules/re2js/',
      // The OpenTelemetry SDK and exporters: only in dist/telemetry.js, loaded when export to a team's collector is on.
      'src/telemetry/node/otlpMetrics.ts',
      'node_modules/@opentelemetry/',
    ];
    // customAgents.ts keeps its small parsers of the chat prompt in the bundle (agentMention, agentNamed).
    // A module moved elsewhere would pass unseen: each one named is still there.
    for (const path of moved) assert.ok(existsSync(path), `${path} is not there: name where it moved`);
    const inBundle = moved.filter((path) => path !== 'src/customization/common/customAgents.ts' && analysis.includes(path));
    assert.deepEqual(inBundle, []);
    assert.match(analysis, /extension\.js +[\d.]+kb +100\.0%/);
  });

  test('the lazy files load in plain Node and do what their sources do', async () => {
    const load = createRequire(join(outdir, 'extension.js'));
    const extras = load('./agent-extras.js') as typeof extrasSource;
    assert.deepEqual(Object.keys(extras).sort(), Object.keys(extrasSource).sort());
    const customization = load('./customization.js') as typeof customizationSource;
    assert.deepEqual(Object.keys(customization).sort(), Object.keys(customizationSource).sort());
    const state = {
      title: 'Fix tests',
      status: 'done',
      model: 'gw-code',
      turns: 2,
      usage: { totalTokens: 1200, inputTokens: 1200, outputTokens: 0, reasoningTokens: 0 },
      originals: [],
      commandsRun: [],
      transcript: [
        { role: 'user', content: 'fix the tests' },
        { role: 'assistant', content: 'see:\n```js\nlet a' },
      ],
    } as unknown as AgentSessionState;
    assert.equal(extras.renderTranscript(state), extrasSource.renderTranscript(state));

    const usage = load('./usage-page.js') as typeof usageHtmlSource;
    const now = Date.UTC(2026, 10, 26, 12);
    const record = {
      kind: 'request',
      time: now - 3_600_000,
      model: 'gw-code',
      endpoint: '/responses',
      surface: 'agent',
      input: 1200,
      output: 300,
      reasoning: 0,
      status: 'stop',
    } as const;
    const summary = summarize([record], () => undefined, now);
    const input = { summary, sessionTitles: new Map(), budget: budgetStatus(summary.today, { tokens: 1_000_000, cost: undefined }, false) };
    const assets = { cspSource: 'test', nonce: 'n0nce', scriptUri: 'usage.js', styleUri: 'usage.css' };
    assert.equal(usage.usagePage(input, assets), usageHtmlSource.usagePage(input, assets));

    assert.equal(typeof (load('./hook-process.js') as { nodeHookHost?: unknown }).nodeHookHost, 'function');
    const telemetry = load('./telemetry.js') as typeof telemetrySource;
    assert.deepEqual(Object.keys(telemetry).sort(), Object.keys(telemetrySource).sort());
    assert.equal(telemetry.problemOf(undefined, 'http://c'), telemetrySource.problemOf(undefined, 'http://c'));
    const ignore = load('./ignore.js') as typeof import('ignore');
    assert.equal(ignore().add('dist/').ignores('dist/a.js'), true);
    const picomatch = load('./picomatch.js') as typeof import('picomatch');
    assert.equal(picomatch.makeRe('src/**/*.ts').test('src/a/b.ts'), true);
    // The workspace readers from the lazy file on a real folder, as from their source.
    const root = await mkdtemp(join(tmpdir(), 'gw-bundle-ws-'));
    try {
      await mkdir(join(root, '.github', 'agents'), { recursive: true });
      await writeFile(join(root, '.github', 'agents', 'reviewer.agent.md'), '---\ndescription: Reviews diffs\ntools: [read_file]\n---\nReview the change.\n');
      const input = { files: new NodeWorkspaceFiles(root), protectedFiles: [], settings: { projectInstructions: true }, logger: silentLogger };
      const fromBundle = await customization.findWorkspaceAgentFiles(input, AbortSignal.timeout(10_000));
      assert.deepEqual(fromBundle, await customizationSource.findWorkspaceAgentFiles(input, AbortSignal.timeout(10_000)));
      assert.deepEqual(
        fromBundle.agents.map((agent) => agent.name),
        ['reviewer'],
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
