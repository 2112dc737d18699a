// The layout a chat scenario starts from, whatever the scenarios before it left: no editor open, the
// explorer in the primary side bar, the Chat view shown in the secondary side bar (not maximized), an
// empty conversation. Earlier scenarios leave other layouts on purpose: 13-usage hides both side bars
// and the panel to give its page room, the agent scenarios leave the Agent Sessions view and diffs open.
import type { UiContext } from './harness';
import { newChat } from './chatActions';

const CHAT_VIEW = '.part.auxiliarybar .interactive-session';
const DIALOG = '.monaco-dialog-box';

/** "View: Close All Editors"; an editor left unsaved (files.autoSave is off) is closed without saving. */
async function closeAllEditors(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  if ((await page.locator('.part.editor .tabs-container .tab').count()) === 0) return;
  await ctx.wb.runCommand('View: Close All Editors');
  const deadline = Date.now() + 15_000;
  while ((await page.locator('.part.editor .tabs-container .tab').count()) > 0) {
    const dontSave = page.locator(`${DIALOG} .monaco-button`).filter({ hasText: /^\s*Don't Save\s*$/ });
    if (await dontSave.isVisible()) await dontSave.click({ timeout: 5_000 });
    if (Date.now() > deadline)
      throw new Error(`layout: editors still open after "Close All Editors" (${await page.locator('.part.editor .tabs-container .tab').allInnerTexts()})`);
    await page.waitForFunction('true', undefined, { timeout: 1_000, polling: 200 }).catch(() => undefined);
  }
}

/** The Chat view in the secondary side bar, the editor area beside it (a maximized side bar covers it). */
async function showChatView(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  if (!(await page.locator(CHAT_VIEW).first().isVisible())) await ctx.wb.runCommand('Chat: Open Chat');
  await page.locator(CHAT_VIEW).first().waitFor({ state: 'visible', timeout: 15_000 });
  if (!(await page.locator('.part.editor').first().isVisible())) {
    await ctx.wb.runCommand('View: Restore Secondary Side Bar');
    await page.locator('.part.editor').first().waitFor({ state: 'visible', timeout: 10_000 });
  }
}

/** The explorer in the primary side bar (Ctrl+Shift+E shows it, also when the side bar was closed). */
async function showExplorer(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  if (await page.locator('.part.sidebar .explorer-folders-view').first().isVisible()) return;
  await ctx.wb.runCommand('View: Show Explorer');
  await page.locator('.part.sidebar .explorer-folders-view').first().waitFor({ state: 'visible', timeout: 10_000 });
}

/** The known start of a chat scenario: no editors, the explorer, the Chat view beside the editor area, a new chat. */
export async function chatLayout(ctx: UiContext): Promise<void> {
  await closeAllEditors(ctx);
  await showExplorer(ctx);
  await showChatView(ctx);
  // Right after a reload the view redraws its title bar, and the "New Chat" button can be replaced under the click.
  for (let attempt = 1; ; attempt++) {
    const done = await newChat(ctx).then(
      () => true,
      (error: unknown) => {
        if (attempt >= 3) throw error;
        return false;
      },
    );
    if (done) return;
  }
}
