// What a person does with the Gateway extension in the workbench, as helpers: set the key
// from the palette, read the status bar item, use the Chat view's model picker, wait for the
// window after a reload. Every wait is on UI state. (Asking in the chat: chatActions.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '../lib/browser';
import { Workbench } from '../lib/workbench';
import type { RecordedRequest } from '../../emulator/server';
import type { UiContext } from './harness';

export const STATUS_ID = 'gateway.gateway-vscode.gateway.status';
export const MODELS = ['gw-chat', 'gw-chat-pro', 'gw-chat-mini', 'gw-code'];

const CHAT = '.interactive-session';
const CHAT_INPUT = `${CHAT} .interactive-input-part .monaco-editor`;
const MODEL_PICKER = `${CHAT} .interactive-input-part .model-picker-item .model-picker-name`;
const ACTION_WIDGET = '.action-widget';
const ACTION_ROWS = `${ACTION_WIDGET} .monaco-list-row[role="option"]`;
const PASSWORD_BOX = '.quick-input-widget .quick-input-box input[type="password"]';

// ---- status bar ------------------------------------------------------------------------

export function statusItem(ctx: UiContext): Locator {
  return ctx.wb.statusBarItem(STATUS_ID);
}

/**
 * Waits until the Gateway item shows: the extension has activated and its commands are
 * registered. A drawn workbench is not that yet: on a loaded machine the extension host
 * comes up seconds later, and the palette has no "Gateway: …" entries until it has.
 */
export async function waitForActivation(page: Page, timeoutMs = 120_000): Promise<void> {
  await page.locator(`.part.statusbar .statusbar-item[id="${STATUS_ID}"]`).waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The Gateway item's text as shown (the codicon dropped). */
export async function statusText(ctx: UiContext): Promise<string> {
  return (await statusItem(ctx).innerText({ timeout: 5_000 })).replace(/\s+/g, ' ').trim();
}

/** Waits until the Gateway item's text matches; returns it. */
export async function waitForStatus(ctx: UiContext, text: RegExp, timeoutMs = 15_000): Promise<string> {
  try {
    await ctx.page.waitForFunction(
      `(() => { const el = document.getElementById(${JSON.stringify(STATUS_ID)}); const t = el && el.offsetParent !== null ? el.innerText.replace(/\\s+/g, ' ').trim() : undefined;
        return t !== undefined && new RegExp(${JSON.stringify(text.source)}, ${JSON.stringify(text.flags)}).test(t); })()`,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    );
  } catch {
    throw new Error(`status bar item never matched ${text} within ${timeoutMs / 1000}s; it shows "${await statusText(ctx).catch(() => '(no Gateway item)')}"`);
  }
  return statusText(ctx);
}

/** The normal state: "model · N/M req · T tok", or, when the Gateway reported no limits (yet), that it did not. */
export const normalStatus = (model = '[\\w.-]+') => new RegExp(`^${model} · (\\d+/\\d+ req · \\S+ tok|limits not reported|limits not known yet)$`);

// ---- the API key -----------------------------------------------------------------------

/** F1 → "Gateway: Set API Key" → the password box → type the key → Enter. */
export async function openSetApiKey(ctx: UiContext): Promise<Locator> {
  await ctx.wb.runCommand('Gateway: Set API Key');
  await ctx.wb.waitForQuickInput('Gateway: Set API Key');
  const box = ctx.page.locator(PASSWORD_BOX);
  await box.waitFor({ state: 'visible', timeout: 10_000 });
  return box;
}

export async function typeKeyAndEnter(ctx: UiContext, box: Locator, key: string): Promise<void> {
  await box.fill(key);
  await ctx.page.keyboard.press('Enter');
  await ctx.wb.waitForQuickInputClosed();
  ctx.key = key;
}

/**
 * Waits for the extension's answer to a key (a toast, faded in) and for the "checking the
 * API key…" progress toast to go; returns the answer's text.
 */
export async function waitForKeyToast(ctx: UiContext, toast: string | RegExp = /Gateway: API key saved/): Promise<string> {
  const note = ctx.wb.notificationToast(toast);
  await note.waitFor({ state: 'visible', timeout: 20_000 });
  await ctx.page
    .locator('.notifications-toasts .notification-toast.notification-fade-in-done')
    .filter({ hasText: toast })
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 });
  await ctx.wb.notificationToast('checking the API key').waitFor({ state: 'detached', timeout: 20_000 });
  return (await note.innerText()).replace(/\s+/g, ' ').trim();
}

/** Scenario set-up: the key `key` (through the palette, unless it is the one last set), toasts cleared. */
export async function ensureKey(ctx: UiContext, key: string): Promise<void> {
  if (ctx.key === key) return;
  await setApiKey(ctx, key);
  await ctx.wb.clearNotifications();
}

/** Sets the key through the palette and waits for the extension's answer (a toast). */
export async function setApiKey(ctx: UiContext, key: string, toast: string | RegExp = /Gateway: API key saved/): Promise<string> {
  await typeKeyAndEnter(ctx, await openSetApiKey(ctx), key);
  return waitForKeyToast(ctx, toast);
}

// ---- VS Code's model picker in the Chat view ---------------------------------------------

export async function chatPickerModel(ctx: UiContext): Promise<string> {
  return (await ctx.page.locator(`${MODEL_PICKER} .chat-input-picker-label`).first().innerText({ timeout: 10_000 })).trim();
}

/**
 * Opens the picker and types "gw" into its "Search models" box, which lists every matching
 * model flat (unfiltered, all but the current one sit in a folded "Other Models" section);
 * returns the rows' aria-labels ("gw-chat, Gateway, Current model").
 */
export async function openChatModelPicker(ctx: UiContext, search = 'gw'): Promise<string[]> {
  const { page } = ctx;
  const filter = page.locator(`${ACTION_WIDGET} input.action-list-filter-input`);
  const gatewayRows = `${ACTION_ROWS}[aria-label*=", Gateway"]`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    // A click on the picker toggles its popup: click until the popup (its search box) shows.
    while (!(await filter.isVisible())) {
      if (Date.now() > deadline) throw new Error("the Chat view's model picker did not open");
      await page.locator(MODEL_PICKER).first().click({ timeout: 10_000 });
      await filter.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
    }
    await filter.fill(search, { timeout: 10_000 });
    const listed = await page
      .waitForFunction(`document.querySelectorAll(${JSON.stringify(gatewayRows)}).length >= ${MODELS.length}`, undefined, { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    // A popup opened while VS Code was re-reading the models (a key was just set) stays
    // empty and detached from the picker; VS Code's next popup has the list. Fewer rows
    // at the deadline: the caller's checks say which are missing.
    if (listed || Date.now() > deadline) break;
    await page.keyboard.press('Escape');
    await filter.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
  }
  return page.locator(ACTION_ROWS).evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? '').filter(Boolean));
}

/**
 * Clicks the model's row (the picker open, as `openChatModelPicker` leaves it) and waits
 * for the picker's label to name it. The popup sometimes closes on its own while VS Code
 * refreshes its model list; then it is opened again, until `timeoutMs`.
 */
export async function pickChatModel(ctx: UiContext, model: string, timeoutMs = 20_000): Promise<void> {
  const { page } = ctx;
  const row = page.locator(`${ACTION_ROWS}[aria-label^=${JSON.stringify(`${model}, `)}]`).first();
  const label = page.locator(`${MODEL_PICKER} .chat-input-picker-label`).filter({ hasText: new RegExp(`^${model}$`) });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (!(await row.isVisible())) await openChatModelPicker(ctx);
      await row.click({ timeout: 3_000 });
      await label.waitFor({ state: 'visible', timeout: 3_000 });
      break;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`could not pick ${model} in the Chat view's model picker: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  await page.waitForSelector(ACTION_WIDGET, { state: 'hidden', timeout: 10_000 });
}

// ---- outside the UI: the emulator's log and the profile's settings (setup only) -----------

/** GET /_emulator/requests: every /v1 request the emulator saw, in order. */
export async function emulatorRequests(ctx: UiContext): Promise<RecordedRequest[]> {
  const res = await fetch(`${ctx.emulator.baseUrl.replace(/\/v1$/, '')}/_emulator/requests`, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`GET /_emulator/requests → ${res.status}`);
  return (await res.json()) as RecordedRequest[];
}

/** The chat completions the emulator answered since `since` (epoch ms): [status, model] each. */
export async function chatCalls(ctx: UiContext, since: number): Promise<{ status: number; model: unknown; key: string | null }[]> {
  return (await emulatorRequests(ctx))
    .filter((r) => r.path === '/v1/chat/completions' && r.time >= since)
    .map((r) => ({ status: r.status, model: (r.body as { model?: unknown } | null)?.model, key: r.key }));
}

/**
 * After a page reload (or a fresh `goto`): the workbench drawn again, the extension activated again (its status bar
 * item; its commands, chat participant and language models are registered in the same activation), and, when the
 * Chat view is showing, its input drawn. Every scenario that reloads waits on this before it goes on; a question
 * then goes through `newChat`, which waits for its new conversation to be in place.
 */
export async function afterReload(ctx: UiContext): Promise<void> {
  await ctx.page.waitForSelector('.monaco-workbench', { state: 'visible', timeout: 60_000 });
  await ctx.page.waitForSelector('.part.statusbar .statusbar-item', { state: 'visible', timeout: 60_000 });
  await waitForActivation(ctx.page);
  const chatInput = ctx.page.locator(CHAT_INPUT).first();
  if (await ctx.page.locator(CHAT).first().isVisible()) await chatInput.waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Set-up for a retry: makes user settings hold `patch` (undefined = remove). code-server
 * does not notice edits of settings.json on disk here, so when the file has to change the
 * page is reloaded (the key stays in secret storage) and `afterReload` awaited.
 */
export async function ensureUserSettings(ctx: UiContext, patch: Record<string, unknown>): Promise<void> {
  const file = path.join(ctx.server.runDir, 'ud', 'User', 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (Object.entries(patch).every(([k, v]) => settings[k] === v)) return;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete settings[k];
    else settings[k] = v;
  }
  writeFileSync(file, JSON.stringify(settings, null, 4));
  ctx.wb = await Workbench.open(ctx.page, ctx.server, { workspace: ctx.workspace });
  await afterReload(ctx);
}

/** A neutral workbench (before each scenario, after a failure): no quick input, no popup, no toasts. */
export async function neutral(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  await page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  await page.waitForSelector(ACTION_WIDGET, { state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  if ((await page.locator('.notifications-toasts .notification-toast').count()) > 0) await ctx.wb.clearNotifications().catch(() => undefined);
}
