// UI-level checks: drive the VS Code web workbench the way a person does (F1 + typing,
// reading the status bar, screenshots). Waits on UI state, never on fixed sleeps.
import type { Locator, Page } from './browser';
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

  /**
   * Runs a command palette entry by its label, e.g. "View: Toggle Status Bar Visibility".
   * The row whose label is exactly `label` is run even when the palette ranks another
   * first ("Gateway: Select Model" also matches "Gateway: Select Agent Model"). Resolves
   * once the palette has closed or the command's own quick input has replaced it.
   */
  async runCommand(label: string, options: { timeoutMs?: number } = {}): Promise<void> {
    // A bound, not a pace: the palette is retried until then (a loaded machine can take 20 s).
    const timeout = options.timeoutMs ?? 30_000;
    const { page } = this;
    // F1 opens the palette with ">"; filling in ">label" filters the commands at once
    // (typing key by key costs about 0.1 s a character here). Two things are retried until
    // `timeout`: the palette closing under us (something else took the focus, e.g. the Chat
    // view focusing its input), and a miss right after the workbench draws, when extensions'
    // commands are not known yet (an open palette does not notice them arrive, so a miss
    // re-filters: ">", then ">label").
    const find = `(() => {
      const wanted = ${JSON.stringify(label.toLowerCase())};
      const rows = [...document.querySelectorAll(${JSON.stringify(QUICK_INPUT_ROWS)})];
      const labelOf = (row) => (row.getAttribute('aria-label') || row.textContent || '').toLowerCase();
      const exact = rows.find((row) => { const l = labelOf(row); return l === wanted || l.startsWith(wanted + ','); });
      if (exact) return exact.getAttribute('data-index');
      const focused = rows.find((row) => row.classList.contains('focused'));
      return focused && labelOf(focused).startsWith(wanted) ? focused.getAttribute('data-index') : false;
    })()`;
    const paletteOpen = `(() => {
      const widget = document.querySelector(${JSON.stringify(QUICK_INPUT)});
      const input = widget && widget.querySelector('.quick-input-box input');
      return !!input && getComputedStyle(widget).display !== 'none' && !widget.classList.contains('quick-input-widget-closing') && input.value.startsWith('>');
    })()`;
    const deadline = Date.now() + timeout;
    let index: string | undefined;
    let problem = '';
    while (index === undefined) {
      const left = deadline - Date.now();
      if (left <= 0) {
        const rows = await this.quickPickRows().catch(() => []);
        throw new Error(`command palette: could not run "${label}" within ${timeout / 1000}s: ${problem} (rows: ${JSON.stringify(rows.slice(0, 8))})`);
      }
      const step = Math.max(1, Math.min(3_000, left));
      try {
        if (!(await page.evaluate<boolean>(paletteOpen))) {
          await page.keyboard.press('F1');
          await page.waitForFunction(paletteOpen, undefined, { timeout: step });
        }
        await page.locator(QUICK_INPUT_BOX).fill(`>${label}`, { timeout: step });
        const handle = (await page.waitForFunction(find, undefined, { timeout: step }).catch(() => undefined)) as { jsonValue(): Promise<string> } | undefined;
        if (handle) index = await handle.jsonValue();
        else {
          problem = 'no such entry';
          await page.locator(QUICK_INPUT_BOX).fill('>', { timeout: step });
        }
      } catch (err) {
        problem = `the palette did not stay open (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
      }
    }
    const row = page.locator(`${QUICK_INPUT_ROWS}[data-index="${index}"]`);
    if ((await row.getAttribute('class', { timeout }))?.split(/\s+/).includes('focused')) await page.keyboard.press('Enter');
    else await row.click({ timeout });
    await page
      .waitForFunction(
        `(() => {
          const widget = document.querySelector(${JSON.stringify(QUICK_INPUT)});
          if (!widget || getComputedStyle(widget).display === 'none') return true;
          if (widget.classList.contains('quick-input-widget-closing')) return false;
          const input = widget.querySelector('.quick-input-box input');
          return !input || !input.value.startsWith('>');
        })()`,
        undefined,
        { timeout },
      )
      .catch(() => {
        throw new Error(`command palette: still open ${timeout / 1000}s after running "${label}"`);
      });
  }

  /** The open quick input (palette, QuickPick or InputBox) once its title contains `title`. */
  async waitForQuickInput(title: string | RegExp, timeoutMs = 15_000): Promise<void> {
    const widget = this.page.locator(`${QUICK_INPUT}:not(.quick-input-widget-closing)`).filter({ hasText: title }).first();
    await widget.locator('.quick-input-title').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** The rows of the open QuickPick, as shown (label, description, detail on one line), in order. */
  async quickPickRows(): Promise<string[]> {
    return this.page
      .locator(QUICK_INPUT_ROWS)
      .evaluateAll((els) =>
        els
          .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
          .map((el) => ((el as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim()),
      );
  }

  /** A QuickPick row by its label (aria-label is "label" or "label, description, detail"). */
  quickPickRow(label: string): Locator {
    const l = JSON.stringify(label);
    const prefix = JSON.stringify(`${label},`);
    return this.page.locator(`${QUICK_INPUT_ROWS}[aria-label=${l}], ${QUICK_INPUT_ROWS}[aria-label^=${prefix}]`).first();
  }

  /** Waits until no quick input is open. */
  async waitForQuickInputClosed(timeoutMs = 15_000): Promise<void> {
    await this.page.waitForSelector(QUICK_INPUT, { state: 'hidden', timeout: timeoutMs });
  }

  /** A notification toast whose text contains `text` (toasts need code-server without the smoke-test driver). */
  notificationToast(text: string | RegExp): Locator {
    return this.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
  }

  /** Clears every notification (toasts cover the bottom right, where the chat input is). */
  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
    await this.page.waitForSelector('.notifications-toasts .notification-toast', { state: 'detached', timeout: 10_000 });
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

  /** The status bar item an extension contributed, by `publisher.name.itemId`. */
  statusBarItem(id: string): Locator {
    return this.page.locator(`${STATUS_BAR} .statusbar-item[id="${id}"]`);
  }

  /** Saves test/e2e/screenshots/<step>.png and returns its path. */
  async screenshot(step: string): Promise<string> {
    const file = await screenshot(this.page, step);
    if (!file) throw new Error(`screenshot ${step} failed`);
    return file;
  }
}
