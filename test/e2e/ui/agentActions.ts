// Helpers of the agent scenarios: the emulator's script for the agent, files awaited on disk, and the
// workbench around a session (editor tabs, Quick Open, the terminal, the palette's task box, the approval
// notifications, the Agent Sessions view, the Output panel). Waits are on UI or disk state.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator } from '../lib/browser';
import type { UiContext } from './harness';
import { clickNotificationButton, readNotification } from './notifications';

const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';
const SESSIONS_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Agent Sessions"])';

// ---- set-up outside the UI: the emulator's script --------------------------------------

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}
type Turn = { toolCalls: ToolCall[] } | { text: string };

/** POSTs `body` to one of the emulator's control routes (/_emulator/…), bounded in time. */
export async function postEmulator(ctx: UiContext, route: string, body: unknown): Promise<void> {
  const control = ctx.emulator.baseUrl.replace(/\/v1$/, '');
  const res = await fetch(`${control}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`POST ${route} → ${res.status} ${await res.text()}`);
}

/** POST /_emulator/reset, then /_emulator/script: the next responses of demo-key, as given. */
export async function scriptTurns(ctx: UiContext, turns: unknown[]): Promise<void> {
  await postEmulator(ctx, '/_emulator/reset', {});
  await postEmulator(ctx, '/_emulator/script', { key: 'demo-key', turns });
}

/** scriptTurns for the agent: the next gw-code responses of demo-key. */
export async function scriptAgent(ctx: UiContext, turns: Turn[]): Promise<void> {
  await scriptTurns(
    ctx,
    turns.map((t) => ({ ...t, model: 'gw-code', endpoint: 'responses' })),
  );
}

/** Waits (polling the disk on this machine) until `file` satisfies `ok`; returns its text. */
export async function waitForDisk(file: string, ok: (text: string | undefined) => boolean, what: string, timeoutMs = 30_000): Promise<string | undefined> {
  const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  const deadline = Date.now() + timeoutMs;
  while (!ok(read())) {
    if (Date.now() > deadline) throw new Error(`${what}: not so on disk within ${timeoutMs / 1000}s; ${path.basename(file)} holds ${JSON.stringify(read())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return read();
}

/** A run counter per scenario: a retry gets another task text, so its session is told apart from the first attempt's. */
const attempts = new Map<string, number>();
export function task(id: string, text: string): string {
  const n = (attempts.get(id) ?? 0) + 1;
  attempts.set(id, n);
  return n === 1 ? text : `${text} (attempt ${n})`;
}

// ---- the workbench around a session ----------------------------------------------------

/** An editor tab whose label contains `text`. */
export function editorTab(ctx: UiContext, text: string | RegExp): Locator {
  return ctx.page.locator('.part.editor .tabs-container .tab').filter({ hasText: text }).first();
}

/** The text of the active editor as shown (non-breaking spaces made plain). */
export async function activeEditorText(ctx: UiContext): Promise<string> {
  return (
    await ctx.page.locator('.part.editor .editor-group-container.active .editor-container .monaco-editor .view-lines').first().innerText({ timeout: 5_000 })
  ).replace(/\u00a0/g, ' ');
}

export async function waitForActiveEditorText(ctx: UiContext, text: string, timeoutMs = 10_000): Promise<void> {
  await ctx.page
    .waitForFunction(
      `(() => { const el = document.querySelector('.part.editor .editor-group-container.active .editor-container .monaco-editor .view-lines');
        return !!el && el.innerText.replace(/\\u00a0/g, ' ').includes(${JSON.stringify(text)}); })()`,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    )
    .catch(async () => {
      throw new Error(
        `the editor never showed ${JSON.stringify(text)} within ${timeoutMs / 1000}s; it shows ${JSON.stringify(await activeEditorText(ctx).catch(() => '(no editor)'))}`,
      );
    });
}

/** Quick Open (F1, the ">" removed): types `name`, picks the row of `file`; waits for its tab to be active. */
export async function quickOpen(ctx: UiContext, name: string, tabLabel: string): Promise<void> {
  const { page } = ctx;
  await page.keyboard.press('F1');
  await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout: 10_000 });
  await page.locator(QUICK_INPUT_BOX).fill(name, { timeout: 10_000 });
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: tabLabel }).first().click({ timeout: 15_000 });
  await ctx.wb.waitForQuickInputClosed();
  await page
    .locator('.part.editor .editor-group-container.active .tabs-container .tab.active')
    .filter({ hasText: tabLabel })
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 });
}

/** A terminal row (xterm's DOM renderer) that reads exactly `text`. */
export async function waitForTerminalLine(ctx: UiContext, text: string, timeoutMs = 30_000): Promise<void> {
  await ctx.page
    .waitForFunction(
      `[...document.querySelectorAll('.part.panel .xterm-rows > div')].some((row) => row.innerText.replace(/\\u00a0/g, ' ').trim() === ${JSON.stringify(text)})`,
      undefined,
      { timeout: timeoutMs, polling: 200 },
    )
    .catch(async () => {
      const rows = await ctx.page.evaluate<string>(
        `[...document.querySelectorAll('.part.panel .xterm-rows > div')].map((r) => r.innerText.trim()).filter(Boolean).join(' | ')`,
      );
      throw new Error(
        `the terminal never showed a line "${text}" within ${timeoutMs / 1000}s; it shows: ${JSON.stringify(rows.slice(0, 400)) || '(no terminal rows)'}`,
      );
    });
}

/** Starts a session from the palette: "Gateway: Start Agent Session…", the task typed in its input box, Enter. */
export async function startFromPalette(ctx: UiContext, taskText: string, submit: boolean): Promise<void> {
  await ctx.wb.runCommand('Gateway: Start Agent Session…');
  await ctx.wb.waitForQuickInput('Gateway: Start Agent Session');
  await ctx.page.locator(QUICK_INPUT_BOX).fill(taskText, { timeout: 10_000 });
  if (!submit) return;
  await ctx.page.keyboard.press('Enter');
  await ctx.wb.waitForQuickInputClosed();
}

/** The approval notification ("Gateway agent wants to: …") naming `what`: its text and buttons. */
export function waitForApproval(ctx: UiContext, what: string, timeoutMs = 60_000): Promise<{ text: string; buttons: string[] }> {
  return readNotification(ctx, ['Gateway agent wants to:', what], timeoutMs);
}

export function clickApprovalButton(ctx: UiContext, what: string, title: string): Promise<void> {
  return clickNotificationButton(ctx, ['Gateway agent wants to:', what], title);
}

/** The Agent Sessions view in the side bar (the activity bar's "Gateway" icon, unless it is showing already). */
export async function showSessionsView(ctx: UiContext): Promise<void> {
  const pane = ctx.page.locator(SESSIONS_PANE).first();
  if (await pane.isVisible()) return;
  // The palette command, not the activity-bar icon: right after a reload the sidebar may still
  // be restoring, and a click on the icon then toggles it closed again.
  await ctx.wb.runCommand('Gateway: Show Agent Sessions', { timeoutMs: 30_000 });
  await pane.waitFor({ state: 'visible', timeout: 10_000 });
}

/** Waits until the Agent Sessions view lists `title` with a description matching `status`; returns the row's text. */
export async function waitForSessionRow(ctx: UiContext, title: string, status: RegExp, timeoutMs = 30_000): Promise<string> {
  const rows = `${SESSIONS_PANE} .monaco-list-row`;
  try {
    const handle = (await ctx.page.waitForFunction(
      `(() => { const row = [...document.querySelectorAll(${JSON.stringify(rows)})].find((r) => { const name = (r.querySelector('.label-name')?.innerText || '').trim(); return name === ${JSON.stringify(title)} || (name.endsWith('…') && ${JSON.stringify(title)}.startsWith(name.slice(0, -1))); });
        const description = row ? (row.querySelector('.label-description')?.innerText || '').replace(/\\s+/g, ' ').trim() : '';
        return row && new RegExp(${JSON.stringify(status.source)}).test(description) ? description : false; })()`,
      undefined,
      { timeout: timeoutMs, polling: 200 },
    )) as { jsonValue(): Promise<string> };
    return await handle.jsonValue();
  } catch {
    const seen = await ctx.page
      .locator(rows)
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      `the Agent Sessions view never listed "${title}" as ${status} within ${timeoutMs / 1000}s; it lists ${JSON.stringify(seen.map((r) => r.replace(/\s+/g, ' ').trim()))}`,
    );
  }
}

export function sessionRow(ctx: UiContext, title: string): Locator {
  return ctx.page
    .locator(`${SESSIONS_PANE} .monaco-list-row`)
    .filter({ hasText: title.slice(0, 24) })
    .first();
}

/** The text of the Output panel's editor ("Gateway Agent" is the channel a palette session shows). */
export async function waitForOutput(ctx: UiContext, parts: (string | RegExp)[], timeoutMs = 30_000): Promise<string> {
  const sel = '.part.panel .monaco-editor .view-lines';
  const read = async () =>
    (
      await ctx.page
        .locator(sel)
        .allInnerTexts()
        .catch(() => [])
    )
      .join('\n')
      .replace(/\u00a0/g, ' ');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await read();
    if (parts.every((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)))) return text;
    if (Date.now() > deadline)
      throw new Error(
        `the Output panel never showed ${parts.map(String).join(' and ')} within ${timeoutMs / 1000}s; it shows ${JSON.stringify(text.slice(0, 600))}`,
      );
    await ctx.page
      .locator(sel)
      .first()
      .waitFor({ state: 'visible', timeout: Math.max(1, Math.min(500, deadline - Date.now())) })
      .catch(() => undefined);
    await ctx.page.waitForFunction('true', undefined, { timeout: 1_000, polling: 200 }).catch(() => undefined);
  }
}
