// UI checks of the PACKAGED extension in the web workbench (code-server + Chromium),
// against the gateway emulator, asserting on what a person sees.
//   node --import tsx test/e2e/ui.ts
// Screenshots: test/e2e/screenshots/ui/<scenario>.<step>.png (emptied at the start).
// Logs: test/e2e/logs/code-server.log, test/e2e/logs/ui-gateway.log (the extension's output channel).
// Env: E2E_SKIP_SETUP=1, E2E_VSIX=file.vsix (test that package instead of building one),
//      E2E_GREP=id[,id…] (run only scenarios whose id contains one of them, in the suite's order), E2E_KEEP=1, E2E_VERBOSE=1,
//      E2E_CPU_HOG=1 (one busy child process beside the whole run: the suite on a loaded machine).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, type Browser } from './lib/browser';
import { ensureSetup } from './lib/build';
import { startCodeServer, type CodeServer } from './lib/codeServer';
import { LOGS_DIR } from './lib/paths';
import { packageVsix } from './lib/vsix';
import { Workbench } from './lib/workbench';
import { createSampleWorkspace } from './lib/workspace';
import { startEmulator, type Emulator } from '../emulator/server';
import { agentChatScenario, agentPaletteScenario, agentReloadScenario } from './ui/agent';
import { agentBackgroundScenario } from './ui/agentBackground';
import { agentHooksScenario } from './ui/agentHooks';
import { agentMcpScenario } from './ui/agentMcp';
import { agentCustomScenario } from './ui/agentCustom';
import { agentPlanScenario } from './ui/agentPlan';
import { agentProblemsScenario } from './ui/agentProblems';
import { agentRewindScenario } from './ui/agentRewind';
import { agentWaitingScenario } from './ui/agentWaiting';
import { agentSideBySideScenario } from './ui/agentSideBySide';
import { limitWaitScenario } from './ui/limitWait';
import { sandboxAgentScenario } from './ui/sandboxAgent';
import { askScenario, selectModelScenario, setKeyScenario } from './ui/basics';
import { neutral, waitForActivation } from './ui/gateway';
import { inlineEditScenario } from './ui/inlineEdit';
import { printReport, resetScreenshots, runScenarios, screenshotCount, UI_SHOTS_DIR, type Scenario, type UiContext } from './ui/harness';
import { emptyBalanceScenario, rateLimitScenario } from './ui/limits';
import { chatModelPickerScenario } from './ui/modelPicker';
import { polishAgentScenario, polishModelScenario } from './ui/polish';
import { usageScenario } from './ui/usage';
import { thinkingScenario } from './ui/thinking';
import { agentSubagentScenario } from './ui/agentSubagent';
import { editorMenuScenario } from './ui/editorMenu';
import { agentSandboxNotesScenario } from './ui/agentSandboxNotes';
import { unreachableScenario } from './ui/unreachable';
import { stoppedScenario } from './ui/stopped';
import { neverListedScenario } from './ui/neverListed';

const SCENARIOS: Scenario[] = [
  setKeyScenario,
  selectModelScenario,
  askScenario,
  emptyBalanceScenario,
  rateLimitScenario,
  chatModelPickerScenario,
  agentChatScenario,
  agentPaletteScenario,
  agentReloadScenario,
  agentPlanScenario,
  agentProblemsScenario,
  agentBackgroundScenario,
  agentHooksScenario,
  agentMcpScenario,
  inlineEditScenario,
  agentRewindScenario,
  usageScenario,
  thinkingScenario,
  agentWaitingScenario,
  limitWaitScenario,
  sandboxAgentScenario,
  agentCustomScenario,
  editorMenuScenario,
  polishModelScenario,
  polishAgentScenario,
  stoppedScenario,
  // It reloads twice (gateway.baseUrl to a second emulator it then stops, and back) and sets demo-key again.
  unreachableScenario,
  // It clears the key at a second emulator (reloading for gateway.baseUrl twice) and sets demo-key again on the suite's.
  neverListedScenario,
  // It turns gateway.agent.subagents on (a user setting; the change reloads the page).
  agentSubagentScenario,
  // It reloads twice (gateway.agent.approval auto on, then off): its question comes right after a reload.
  agentSandboxNotesScenario,
  // It makes the workspace a Git repository for its three worktree sessions, and a plain folder again at its end.
  agentSideBySideScenario,
];

const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const log = (msg: string) => console.log(`[ui ${since()}] ${msg}`);
const timings: [string, number][] = [];
async function timed<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    timings.push([label, Date.now() - started]);
  }
}

/**
 * E2E_CPU_HOG=1: one child process that keeps a core busy for the run's length, so the suite is tried on a loaded
 * machine (every wait must be on a state, not a pace). The child checks now and then that this process is still
 * there and ends with it: a driver killed without its `finally` leaves no busy loop behind.
 */
function startCpuHog(): ChildProcess | undefined {
  if (process.env.E2E_CPU_HOG !== '1') return undefined;
  const busyLoop = `const parent = ${process.pid}; for (let i = 0; ; i++) if ((i & 0xffffff) === 0) { try { process.kill(parent, 0); } catch { process.exit(0); } }`;
  const hog = spawn(process.execPath, ['-e', busyLoop], { stdio: 'ignore' });
  log(`CPU hog: pid ${hog.pid} busy for the whole run (E2E_CPU_HOG=1)`);
  return hog;
}

/** The extension's own log (its "Gateway" output channel) before the run folder goes away. */
function keepGatewayLog(server: CodeServer): void {
  const logsRoot = path.join(server.runDir, 'ud', 'logs');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name === 'Gateway.log' && p.includes('gateway.gateway-vscode')) found.push(p);
    }
  };
  walk(logsRoot);
  if (found.length === 0) return;
  mkdirSync(LOGS_DIR, { recursive: true });
  copyFileSync(found[found.length - 1], path.join(LOGS_DIR, 'ui-gateway.log'));
}

async function main(): Promise<number> {
  if (process.env.E2E_SKIP_SETUP !== '1') await timed('setup.sh', () => ensureSetup());
  resetScreenshots();
  const vsix = process.env.E2E_VSIX ? { file: path.resolve(process.env.E2E_VSIX), warnings: [] } : await timed('build + vsce package', () => packageVsix());
  log(`package: ${vsix.file}`);
  for (const warning of vsix.warnings) log(`WARNING: ${warning}`);

  const grep = process.env.E2E_GREP;
  const wanted = grep?.split(',').filter(Boolean) ?? [];
  const scenarios = wanted.length ? SCENARIOS.filter((s) => wanted.some((w) => s.id.includes(w))) : SCENARIOS;
  const ws = createSampleWorkspace();
  const hog = startCpuHog();
  let emulator: Emulator | undefined;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  const retried: string[] = [];
  try {
    // One request per 8 s window and no rate-limit headers for limited-key: the client
    // cannot pace itself, so it meets a real 429 whose countdown is short.
    emulator = await timed('emulator', () => startEmulator({ port: 0, keys: [{ key: 'limited-key', rpm: 1, rateLimitHeaders: false }], windowMs: 8000 }));
    log(`emulator ${emulator.baseUrl}`);
    const emu = emulator;
    // Without the smoke-test driver: notification toasts show as they do for a person.
    server = await timed('install vsix + code-server up', () =>
      startCodeServer({
        workspace: ws.dir,
        vsix: [vsix.file],
        settings: {
          'gateway.baseUrl': emu.baseUrl,
          // Agent sessions (scenarios 7–9) on the code model; approvals stay "ask" (the default).
          'gateway.agentModel': 'gw-code',
          // xterm's DOM renderer, so the terminal's text can be read from the page.
          'terminal.integrated.gpuAcceleration': 'off',
          // In the browser files.autoSave defaults to afterDelay (1 s; desktop VS Code: off).
          // Scenario 10 types into a file and checks that the extension left it alone, then
          // reverts it: an auto-save in between (on a loaded machine the step takes seconds)
          // wrote the typed line to disk and left nothing to revert. Files are saved by the
          // scenarios (Ctrl+S) or by the extension, never by a timer.
          'files.autoSave': 'off',
        },
        smokeTestDriver: false,
      }),
    );
    const installed = readdirSync(path.join(server.runDir, 'ext')).filter((d) => d.startsWith('gateway.gateway-vscode'));
    if (installed.length !== 1) throw new Error(`the vsix did not install into ${server.runDir}/ext (found ${JSON.stringify(installed)})`);
    log(`code-server ${server.url}, installed ${installed[0]}`);
    browser = await timed('chromium', () => launchBrowser());
    const srv = server;
    const page = browser.page;
    const wb = await timed('workbench drawn', () => Workbench.open(page, srv, { workspace: ws.dir }));
    await timed('extension activated', () => waitForActivation(page));
    log(`workbench drawn; ${scenarios.length} scenario(s)`);

    const ctx: UiContext = { wb, page, server, emulator, workspace: ws.dir };
    const started = Date.now();
    const results = await runScenarios(ctx, scenarios, neutral);
    timings.push(['scenarios', Date.now() - started]);
    for (const r of results) {
      timings.push([`  ${r.scenario.id}`, r.attempts.reduce((sum, a) => sum + a.ms, 0)]);
      if (r.passed) passed++;
      else failed++;
      if (r.attempts.length > 1) retried.push(r.scenario.id);
    }
    printReport(results);
    keepGatewayLog(server);
  } finally {
    hog?.kill();
    await browser?.close();
    await server?.stop();
    await emulator?.close();
    ws.dispose();
    if (!process.env.E2E_VSIX && process.env.E2E_KEEP !== '1') rmSync(path.dirname(vsix.file), { recursive: true, force: true });
  }
  console.log(`\nTimings: ${timings.map(([label, ms]) => `${label.trim()} ${(ms / 1000).toFixed(1)} s`).join(', ')}; total ${since()}`);
  console.log(`Screenshots: ${screenshotCount()} in ${path.relative(process.cwd(), UI_SHOTS_DIR) || UI_SHOTS_DIR}`);
  // A retry hides a flaky scenario: the count is part of the result, 0 on a healthy run.
  if (hog) console.log('CPU hog: one busy process ran beside the whole run (E2E_CPU_HOG=1)');
  console.log(`Retries used: ${retried.length}${retried.length ? ` (${retried.join(', ')})` : ''}`);
  // The summary line names the retries too: "13 passed, 0 failed, 0 retries" is the healthy run.
  console.log(`${passed} passed, ${failed} failed, ${retried.length} ${retried.length === 1 ? 'retry' : 'retries'}`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[ui ${since()}] error:`, err instanceof Error ? err.message : err);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
