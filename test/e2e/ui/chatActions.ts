// The chat as a person uses it, as helpers: an empty conversation, a question typed and sent, the answer read,
// the buttons and command links in the answers clicked. Every wait is on what the Chat view shows.
import type { Locator } from '../lib/browser';
import type { UiContext } from './harness';

const CHAT = '.interactive-session';
const CHAT_INPUT = `${CHAT} .interactive-input-part .monaco-editor`;

/** The chat input's text as shown, whitespace collapsed. */
const INPUT_TEXT = `(document.querySelector(${JSON.stringify(`${CHAT_INPUT} .view-lines`)})?.innerText || '').replace(/\\s+/g, ' ').trim()`;
const CHAT_ITEMS = `${CHAT} .interactive-item-container`;

/**
 * An empty conversation in the Chat view, whether a scenario before left the view open or hid it. "New Chat"
 * replaces the conversation asynchronously (it stores the old one's editing session first), so it is clicked
 * only when the conversation shown has items, and done once they are gone. On a conversation that is empty
 * already (always so right after a reload) nothing shows when the new one arrives: "no items" held at once, the
 * question went into the old conversation, and the new one replaced it a second later — the answer arrived in a
 * conversation no longer shown, the scenario saw "(no response)".
 */
export async function newChat(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  const input = page.locator(CHAT_INPUT).first();
  if (!(await input.isVisible())) await ctx.wb.runCommand('Chat: Open Chat');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  if ((await page.locator(CHAT_ITEMS).count()) === 0) return;
  const newChatAction = page.locator('a.action-label[aria-label^="New Chat ("]').first();
  if (await newChatAction.isVisible()) await newChatAction.click({ timeout: 10_000 });
  else await ctx.wb.runCommand('Chat: New Chat');
  await page.waitForFunction(`!document.querySelector(${JSON.stringify(CHAT_ITEMS)})`, undefined, { timeout: 20_000 });
  await input.waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Types a message into the chat input and sends it with Enter. The text goes in as one
 * input event (`insertText`): key by key costs 0.1 s a character here, and typing "@g…"
 * opens a suggestion list that would take the Enter.
 */
export async function ask(ctx: UiContext, prompt: string): Promise<void> {
  const { page } = ctx;
  // Toasts sit over the bottom right, where the chat input is.
  if ((await page.locator('.notifications-toasts .notification-toast').count()) > 0) await ctx.wb.clearNotifications();
  await page.locator(CHAT_INPUT).first().click({ timeout: 10_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(prompt);
  await page.waitForFunction(`${INPUT_TEXT} === ${JSON.stringify(prompt)}`, undefined, { timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.locator(`${CHAT} .interactive-request`).filter({ hasText: prompt }).last().waitFor({ state: 'visible', timeout: 10_000 });
}

export interface ChatResponse {
  text: string;
  /** Texts of the buttons in the response (stream.button). */
  buttons: string[];
  /** Error / warning boxes in the response (errorDetails). */
  errors: string[];
}

// Runs in the page: the response that follows the last request containing `prompt`.
const RESPONSE_TO = `(prompt) => {
  const rowOf = (el) => Number(el.closest('.monaco-list-row')?.getAttribute('data-index') ?? -1);
  const items = [...document.querySelectorAll('.interactive-session .interactive-item-container')].sort((a, b) => rowOf(a) - rowOf(b));
  let at = -1;
  items.forEach((item, i) => { if (item.classList.contains('interactive-request') && item.innerText.includes(prompt)) at = i; });
  const item = at >= 0 ? items[at + 1] : undefined;
  if (!item || !item.classList.contains('interactive-response')) return undefined;
  const texts = (sel) => [...item.querySelectorAll(sel)].map((el) => el.innerText.replace(/\\s+/g, ' ').trim()).filter(Boolean);
  return { text: item.innerText.replace(/\\s+/g, ' ').trim(), buttons: texts('.monaco-button, .chat-button'), errors: texts('.chat-notification-widget') };
}`;

export async function responseTo(ctx: UiContext, prompt: string): Promise<ChatResponse | undefined> {
  return (await ctx.page.evaluate(`(${RESPONSE_TO})(${JSON.stringify(prompt)})`)) as ChatResponse | undefined;
}

/**
 * Waits until the response to `prompt` shows text matching `text` (or, with `orError`,
 * any error box: the response has ended another way); returns the response.
 */
export async function waitForResponse(ctx: UiContext, prompt: string, text: RegExp, timeoutMs = 60_000, orError = false): Promise<ChatResponse> {
  try {
    const handle = (await ctx.page.waitForFunction(
      `(() => { const r = (${RESPONSE_TO})(${JSON.stringify(prompt)});
        return r && (new RegExp(${JSON.stringify(text.source)}, ${JSON.stringify(text.flags)}).test(r.text) || (${orError} && r.errors.length > 0)) ? r : false; })()`,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    )) as { jsonValue(): Promise<ChatResponse> };
    return await handle.jsonValue();
  } catch {
    const seen = await responseTo(ctx, prompt).catch(() => undefined);
    throw new Error(
      `the chat never showed ${text} in the answer to "${prompt}" within ${timeoutMs / 1000}s; the response shows: ${seen ? JSON.stringify(seen.text) : '(no response)'}`,
    );
  }
}

// ---- buttons and links in the answers ----------------------------------------------------

/** The Approve / Deny / Show Diff buttons shown in the response to `prompt`. */
export function chatButton(ctx: UiContext, title: string): Locator {
  return ctx.page.locator(`${CHAT} .interactive-response .monaco-button`).filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) });
}

/** The newest command link titled `title` in the chat's responses (the session summary's actions). */
export function chatLink(ctx: UiContext, title: string): Locator {
  return ctx.page
    .locator(`${CHAT} .interactive-response a`)
    .filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) })
    .last();
}

/** Waits until the response to `prompt` has `n` buttons titled `title`; returns the n-th. */
export async function waitForChatButton(ctx: UiContext, title: string, n: number, timeoutMs = 60_000): Promise<Locator> {
  const buttons = chatButton(ctx, title);
  const deadline = Date.now() + timeoutMs;
  while ((await buttons.count()) < n) {
    if (Date.now() > deadline) throw new Error(`the chat never showed ${n} "${title}" button(s) (it shows ${await buttons.count()})`);
    await buttons
      .nth(n - 1)
      .waitFor({ state: 'attached', timeout: Math.max(1, Math.min(2_000, deadline - Date.now())) })
      .catch(() => undefined);
  }
  const button = buttons.nth(n - 1);
  await button.waitFor({ state: 'visible', timeout: 10_000 });
  return button;
}

/**
 * Clicks the n-th `title` button of the chat, again until `timeoutMs`: while a turn is still being written the
 * chat re-renders its rows, and a click can wait out its timeout on a button that is replaced under it.
 */
export async function clickChatButton(ctx: UiContext, title: string, n: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const button = await waitForChatButton(ctx, title, n, Math.max(1, deadline - Date.now()));
    const clicked = await button.click({ timeout: 5_000 }).then(
      () => true,
      (error: unknown) => {
        if (Date.now() > deadline) throw error;
        return false;
      },
    );
    if (clicked) return;
  }
}
