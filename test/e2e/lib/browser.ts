// Launches Debian's chromium through playwright-core, both taken from outside the repo:
// the driver from the cache that setup.sh fills, the browser from /usr/bin/chromium
// (Playwright never downloads a browser here).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHROMIUM, PLAYWRIGHT_CORE } from './paths';

// The few playwright-core types the rig uses; the package is not a devDependency,
// so its own typings are not available to tsc.
export interface Locator {
  first(): Locator;
  last(): Locator;
  nth(index: number): Locator;
  count(): Promise<number>;
  click(options?: { timeout?: number; button?: 'left' | 'right' }): Promise<void>;
  hover(options?: { timeout?: number }): Promise<void>;
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  textContent(options?: { timeout?: number }): Promise<string | null>;
  innerText(options?: { timeout?: number }): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  isVisible(): Promise<boolean>;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  evaluateAll<R>(fn: (elements: Element[]) => R): Promise<R>;
  evaluate<R>(fn: (element: Element) => R, arg?: unknown, options?: { timeout?: number }): Promise<R>;
  locator(selector: string): Locator;
  filter(options: { hasText?: string | RegExp }): Locator;
  screenshot(options?: { path?: string }): Promise<Buffer>;
}
export interface ConsoleMessage {
  type(): string;
  text(): string;
}
export interface Frame {
  evaluate<R>(fn: () => R): Promise<R>;
}
export interface Page {
  /** The page's frames, nested ones (webviews) included. */
  frames(): Frame[];
  waitForTimeout(ms: number): Promise<void>;
  goto(url: string, options?: { timeout?: number; waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit' }): Promise<unknown>;
  exposeFunction(name: string, fn: (...args: any[]) => unknown): Promise<void>;
  waitForSelector(selector: string, options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<unknown>;
  waitForFunction(fn: string | (() => unknown), arg?: unknown, options?: { timeout?: number; polling?: number | 'raf' }): Promise<unknown>;
  locator(selector: string): Locator;
  getByRole(role: string, options?: { name?: string | RegExp; exact?: boolean }): Locator;
  keyboard: { press(key: string): Promise<void>; type(text: string, options?: { delay?: number }): Promise<void>; insertText(text: string): Promise<void> };
  screenshot(options?: { path?: string; fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number } }): Promise<Buffer>;
  evaluate<R>(fn: string | (() => R)): Promise<R>;
  on(event: 'console', listener: (msg: ConsoleMessage) => void): void;
  on(event: 'pageerror', listener: (err: Error) => void): void;
  on(event: 'crash' | 'close', listener: () => void): void;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  setDefaultTimeout(ms: number): void;
  url(): string;
  isClosed(): boolean;
}
export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface PlaywrightCore {
  chromium: {
    launchPersistentContext(userDataDir: string, options: Record<string, unknown>): Promise<BrowserContext>;
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>;
}

function loadPlaywright(): PlaywrightCore {
  const req = createRequire(path.join(PLAYWRIGHT_CORE, 'package.json'));
  return req(PLAYWRIGHT_CORE) as PlaywrightCore;
}

export async function launchBrowser(options: { width?: number; height?: number } = {}): Promise<Browser> {
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  const { chromium } = loadPlaywright();
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: options.width ?? 1400, height: options.height ?? 900 },
      timeout: 60_000,
    });
  } catch (err) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
