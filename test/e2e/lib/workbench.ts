// UI-level checks: drive the VS Code web workbench the way a person does (F1 + typing,
// reading the status bar, screenshots). Waits on UI state, never on fixed sleeps.
import type { Page } from './browser';
import type { CodeServer } from './codeServer';
import { screenshot, workbenchUrl } from './runExtensionTests';

export interface OpenOptions {
  /** Absolute path of the folder to open. */
  workspace: string;
  /** Load this extension folder as under development (no tests run). */
  extensionDevelopmentPath?: string;
  timeoutMs?: number;
}

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} .quick-input-box input`;
const QUICK_INPUT_ROWS = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;
const STATUS_BAR = '.part.statusbar';

export class Workbench {
  private constructor(
    readonly page: Page,
    readonly server: CodeServer,
  ) {}

  /** Opens the workbench on `workspace` and waits until it has drawn (about 6 s on a fresh profile). */
  static async open(page: Page, server: CodeServer, options: OpenOptions): Promise<Workbench> {
    const timeout = options.timeoutMs ?? 60_000;
    const dev = options.extensionDevelopmentPath ? { extensionDevelopmentPath: options.extensionDevelopmentPath } : undefined;
    await page.goto(workbenchUrl(server, options.workspace, dev), { waitUntil: 'domcontentloaded', timeout });
    await page.waitForSelector('.monaco-workbench', { state: 'visible', timeout });
    // Drawn: the status bar has items and the explorer shows the folder.
    await page.waitForSelector(`${STATUS_BAR} .statusbar-item`, { state: 'visible', timeout });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { state: 'visible', timeout });
    return new Workbench(page, server);
  }

  /** Runs a command palette entry by its label, e.g. "View: Toggle Status Bar Visibility". */
  async runCommand(label: string, options: { timeoutMs?: number } = {}): Promise<void> {
    const timeout = options.timeoutMs ?? 15_000;
    const { page } = this;
    await page.keyboard.press('F1');
    await page.waitForSelector(QUICK_INPUT_BOX, { state: 'visible', timeout });
    // F1 opens the palette with ">"; filling in ">label" filters the commands at once
    // (typing key by key costs about 0.1 s a character here).
    await page.locator(QUICK_INPUT_BOX).fill(`>${label}`, { timeout });
    // Wait until the focused (first) row is the wanted command, then run it.
    const wanted = label.toLowerCase();
    await page.waitForFunction(
      `(() => {
        const row = document.querySelector(${JSON.stringify(`${QUICK_INPUT_ROWS}.focused`)});
        const text = row && (row.getAttribute('aria-label') || row.textContent || '').toLowerCase();
        return !!text && text.startsWith(${JSON.stringify(wanted)});
      })()`,
      undefined,
      { timeout },
    );
    await page.keyboard.press('Enter');
    await page.waitForSelector(QUICK_INPUT, { state: 'hidden', timeout });
  }

  /** Texts of the visible status bar items, left to right (codicons dropped). */
  async statusBarItems(): Promise<string[]> {
    return this.page.locator(`${STATUS_BAR} .statusbar-item`).evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ((el as HTMLElement).innerText || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim())
        .filter(Boolean),
    );
  }

  async isStatusBarVisible(): Promise<boolean> {
    return this.page.locator(STATUS_BAR).first().isVisible();
  }

  async waitForStatusBar(visible: boolean, timeoutMs = 10_000): Promise<void> {
    await this.page.waitForSelector(STATUS_BAR, { state: visible ? 'visible' : 'hidden', timeout: timeoutMs });
  }

  /** Waits until a status bar item's text contains `text` (string or regex); returns the item text. */
  async waitForStatusBarItem(text: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const item = this.page.locator(`${STATUS_BAR} .statusbar-item`).filter({ hasText: text }).first();
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    return (await item.innerText()).trim();
  }

  /** Saves test/e2e/screenshots/<step>.png and returns its path. */
  async screenshot(step: string): Promise<string> {
    const file = await screenshot(this.page, step);
    if (!file) throw new Error(`screenshot ${step} failed`);
    return file;
  }
}
