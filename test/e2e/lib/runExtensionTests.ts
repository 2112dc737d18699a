// Runs an extension-test module (one exporting `run(): Promise<void>`) in code-server's
// extension host, the way VS Code's own web integration tests do: a workbench URL whose
// `payload` names the extension under development and the tests, plus two page functions
// the workbench calls back (it does so only with --vscode-option enable-smoke-test-driver).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { Page } from './browser';
import type { CodeServer } from './codeServer';
import { LOGS_DIR, SCREENSHOTS_DIR } from './paths';

export interface RunExtensionTestsOptions {
  server: CodeServer;
  page: Page;
  /** Absolute path of the extension folder (its package.json). */
  extensionDevelopmentPath: string;
  /** Absolute path of the JS module with `run()`. */
  extensionTestsPath: string;
  /** Absolute path of the folder to open. */
  workspace: string;
  /** Default 360 s (the whole suite took 170 s on the loaded 2-core machine before the dialect tests added up to 100 s), or E2E_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Where the log lines go (default: stdout/stderr, without known workbench chatter unless
   * E2E_VERBOSE=1). Every line also goes to test/e2e/logs/<logName>.log.
   */
  onLog?: (type: string, text: string) => void;
  /** Default extension-tests. */
  logName?: string;
  /** Screenshot name on failure (default ext-tests-failure). */
  failureScreenshot?: string;
}

export const TIMEOUT_EXIT_CODE = 124;

/**
 * codeAutomationLog carries the workbench's own log (info and up) as well as the extension
 * host's console, with nothing to tell them apart. These are the workbench's lines seen on
 * an offline machine with no account; they are kept out of the console (not the log file).
 */
export const WORKBENCH_NOISE: RegExp[] = [
  /^\[(AgentHost|AgentHost:remote|ChatModelSelection|AccountPolicyGate|Service Worker|reconnection-grace-time)\]/,
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket \(renderer-/,
  /^Updating additional builtin extensions cache/,
  /^getaddrinfo ENOTFOUND open-vsx\.org/,
  /^Timed out waiting for authentication provider 'github'/,
  /^Canceled: Canceled/,
];

export function isWorkbenchNoise(text: string): boolean {
  return WORKBENCH_NOISE.some((re) => re.test(text));
}

/** The workbench URL that loads `extensionDevelopmentPath` and, if given, runs `extensionTestsPath`. */
export function workbenchUrl(server: CodeServer, workspace: string, dev?: { extensionDevelopmentPath: string; extensionTestsPath?: string }): string {
  let url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  if (dev) {
    const payload: [string, string][] = [['extensionDevelopmentPath', server.remoteUri(dev.extensionDevelopmentPath)]];
    if (dev.extensionTestsPath) payload.push(['extensionTestsPath', server.remoteUri(dev.extensionTestsPath)]);
    url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  }
  return url;
}

/** The extension host's console arrives as (type, args) with printf-style args. */
function formatArgs(args: unknown): string {
  if (!Array.isArray(args)) return String(args);
  if (args.length === 0) return '';
  // Browser console styling (%c) has no meaning here: drop the directive and its argument.
  const [first, ...rest] = args;
  if (typeof first === 'string' && first.includes('%c')) {
    const kept: unknown[] = [];
    let i = 0;
    const fmt = first.replace(/%[sdifoOjc%]/g, (m) => {
      if (m === '%%') return m;
      const arg = rest[i++];
      if (m === '%c') return '';
      kept.push(arg);
      return m;
    });
    return format(fmt, ...kept, ...rest.slice(i));
  }
  return format(...(args as [unknown, ...unknown[]]));
}

export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  try {
    await page.screenshot({ path: file });
    return file;
  } catch {
    return undefined;
  }
}

/** Resolves with the tests' exit code: 0 when run() resolved, 1 when it rejected, 124 on timeout. */
export async function runExtensionTests(options: RunExtensionTestsOptions): Promise<number> {
  const { page, server } = options;
  const timeoutMs = options.timeoutMs ?? (Number(process.env.E2E_TIMEOUT_MS) || 360_000);
  const verbose = process.env.E2E_VERBOSE === '1';
  const onLog =
    options.onLog ??
    ((type: string, text: string) => {
      if (!verbose && isWorkbenchNoise(text)) return;
      (type === 'error' || type === 'warn' ? process.stderr : process.stdout).write(text.endsWith('\n') ? text : `${text}\n`);
    });
  mkdirSync(LOGS_DIR, { recursive: true });
  const logFile = path.join(LOGS_DIR, `${options.logName ?? 'extension-tests'}.log`);
  writeFileSync(logFile, '');

  let settle!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (settle = resolve));
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
    try {
      const text = formatArgs(args);
      appendFileSync(logFile, `${type.padEnd(5)} ${text}\n`);
      onLog(type, text);
    } catch {
      /* never throw into the page */
    }
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => settle(typeof code === 'number' ? code : 1));

  // Page-side errors help when the workbench never reaches the tests.
  const pageErrors: string[] = [];
  const keepPageError = (text: string) => {
    const first = text.replace(/^%c\s*ERR\s+color:\s*\S+\s*/, '').split('\n')[0];
    if (!first || isWorkbenchNoise(first) || /^Failed to load resource|^Error: Timed out waiting for authentication provider 'github'/.test(first)) return;
    pageErrors.push(first);
  };
  page.on('pageerror', (err) => keepPageError(String(err?.stack ?? err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') keepPageError(msg.text());
  });
  page.on('crash', () => settle(1));

  const url = workbenchUrl(server, options.workspace, {
    extensionDevelopmentPath: options.extensionDevelopmentPath,
    extensionTestsPath: options.extensionTestsPath,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT_EXIT_CODE), timeoutMs);
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  const code = await Promise.race([exited, timeout]);
  clearTimeout(timer);

  if (code !== 0) {
    const why = code === TIMEOUT_EXIT_CODE ? `timed out after ${Math.round(timeoutMs / 1000)}s` : `exit code ${code}`;
    process.stderr.write(`[e2e] extension tests failed: ${why} (${((Date.now() - started) / 1000).toFixed(1)}s after page load)\n`);
    const shot = await screenshot(page, options.failureScreenshot ?? 'ext-tests-failure');
    if (shot) process.stderr.write(`[e2e] screenshot: ${shot}\n`);
    if (pageErrors.length) process.stderr.write(`[e2e] page errors:\n  ${pageErrors.slice(-10).join('\n  ')}\n`);
    process.stderr.write(`[e2e] workbench + extension host log: ${logFile}\n`);
    process.stderr.write(`[e2e] code-server log, last lines (all of it: test/e2e/logs/code-server.log after the server stops):\n${server.logTail(15)}\n`);
  }
  return code;
}
