// Notifications as a person meets them: a toast, or, once the toast has hidden itself, a row
// of the notification center (the bell in the status bar). VS Code hides an info or warning
// toast after 15–18 s, buttons or not, and keeps it in the center; on a loaded machine a step
// can take that long between the toast appearing and the test reading or clicking it.
import type { Locator } from '../lib/browser';
import type { UiContext } from './harness';

const TOASTS = '.notifications-toasts .notification-toast';
const CENTER = '.notifications-center.visible';
const CENTER_ITEMS = `${CENTER} .notification-list-item`;

// locator.hover exists in playwright-core; the rig's narrow types leave it out.
type Hoverable = Locator & { hover(options?: { timeout?: number }): Promise<void> };

type Texts = string[];

function matching(ctx: UiContext, where: string, texts: Texts): Locator {
  return texts.reduce((found, text) => found.filter({ hasText: text }), ctx.page.locator(where)).first();
}

const centerShown = (ctx: UiContext) => ctx.page.locator(CENTER).first().isVisible();

/**
 * The notification holding every one of `texts`: its toast while one shows, else its row in
 * the notification center, opened for it (a toast not there within 3 s may have hidden itself).
 */
async function waitForNotificationItem(ctx: UiContext, texts: Texts, timeoutMs: number): Promise<Locator> {
  const toast = matching(ctx, TOASTS, texts);
  const listed = matching(ctx, CENTER_ITEMS, texts);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await toast.isVisible()) return toast;
    if (await listed.isVisible()) return listed;
    const left = deadline - Date.now();
    if (left <= 0) {
      const shown = await ctx.page.locator(`${TOASTS}, ${CENTER_ITEMS}`).allInnerTexts();
      throw new Error(
        `no notification with ${texts.map((t) => `"${t}"`).join(' and ')} within ${timeoutMs / 1000}s (shown: ${JSON.stringify(shown.map((t) => t.replace(/\s+/g, ' ')))})`,
      );
    }
    const step = Math.max(1, Math.min(3_000, left));
    // While the center shows, a new notification goes there, not to a toast.
    if (await centerShown(ctx)) await listed.waitFor({ state: 'visible', timeout: step }).catch(() => undefined);
    else if (
      !(await toast.waitFor({ state: 'visible', timeout: step }).then(
        () => true,
        () => false,
      ))
    )
      await ctx.wb.runCommand('Notifications: Show Notifications').catch(() => undefined);
  }
}

/** Closes the notification center when it shows (it covers the bottom right, where the chat input is). */
export async function hideNotificationCenter(ctx: UiContext): Promise<void> {
  if (!(await centerShown(ctx))) return;
  await ctx.wb.runCommand('Notifications: Hide Notifications').catch(() => ctx.page.keyboard.press('Escape'));
  await ctx.page.waitForSelector(CENTER, { state: 'hidden', timeout: 10_000 });
}

/** Waits for the notification holding `texts` (toast or center); its text and buttons as shown. */
export async function readNotification(ctx: UiContext, texts: Texts, timeoutMs = 30_000): Promise<{ text: string; buttons: string[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = await waitForNotificationItem(ctx, texts, Math.max(1, deadline - Date.now()));
    await expand(item);
    // The toast can hide itself between finding it and reading it: then it is looked for again.
    const read = await item.innerText({ timeout: 3_000 }).then(
      (text) => text.replace(/\s+/g, ' ').trim(),
      (error: unknown) => {
        if (Date.now() > deadline) throw error;
        return undefined;
      },
    );
    if (read === undefined) continue;
    const buttons = (await item.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter(Boolean);
    await hideNotificationCenter(ctx);
    return { text: read, buttons };
  }
}

/** A row of the center shows its buttons when expanded (a toast always is). */
async function expand(item: Locator): Promise<void> {
  if (await item.evaluate((el) => el.classList.contains('expanded'), undefined, { timeout: 3_000 }).catch(() => true)) return;
  await (item as Hoverable).hover({ timeout: 5_000 }).catch(() => undefined);
  await item
    .locator('.codicon-notifications-expand')
    .first()
    .click({ timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * Clicks `title` on the notification holding `texts` (its toast, or its row in the center
 * once the toast has gone); returns once the notification is gone from both.
 */
export async function clickNotificationButton(ctx: UiContext, texts: Texts, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = await waitForNotificationItem(ctx, texts, Math.max(1, deadline - Date.now()));
    await expand(item);
    const button = item
      .locator('.monaco-button')
      .filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) })
      .first();
    // The toast can hide itself between finding it and the click: then it is looked for again.
    const clicked = await button.click({ timeout: 5_000 }).then(
      () => true,
      (error: unknown) => {
        if (Date.now() > deadline) throw error;
        return false;
      },
    );
    if (clicked) break;
  }
  const gone = `(() => ![...document.querySelectorAll(${JSON.stringify(`${TOASTS}, ${CENTER_ITEMS}`)})].some((n) => ${JSON.stringify(texts)}.every((t) => n.innerText.includes(t))))()`;
  await ctx.page.waitForFunction(gone, undefined, { timeout: 30_000, polling: 200 });
  await hideNotificationCenter(ctx);
}
