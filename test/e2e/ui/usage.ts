// Scenario 13 (last): "Gateway: Show Usage". It asks @gateway a question of its own first, so it
// stands alone (E2E_GREP=13-usage); after the full run the page also holds the requests of the
// scenarios before it (chat, agent sessions, inline edit). Checked against the usage log on disk
// and the emulator's log: the charts per model and per surface, today's figures; in the dark theme
// and, after a switch, the light one (both become the README's screenshots). The page is a
// webview: read through its frame.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from '../lib/browser';
import type { Scenario, UiContext } from './harness';
import { emulatorRequests, ensureKey, ensureUserSettings } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';

const SURFACE_LABELS: Record<string, string> = { chat: '@gateway chat', agent: 'Agent sessions', inline: 'Inline edit', lm: 'Language model provider' };

/** What the extension's usage log on disk holds: the surfaces seen and today's tokens (the page must show the same). */
function usageLog(ctx: UiContext): { surfaces: Set<string>; todayTokens: number } {
  const file = path.join(ctx.server.runDir, 'ud', 'User', 'globalStorage', 'gateway.gateway-vscode', 'usage.jsonl');
  const surfaces = new Set<string>();
  let todayTokens = 0;
  const today = new Date().toDateString();
  for (const line of existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { kind: string; time: number; surface: string; input: number; output: number };
    surfaces.add(entry.surface);
    if (entry.kind === 'request' && new Date(entry.time).toDateString() === today) todayTokens += entry.input + entry.output;
  }
  return { surfaces, todayTokens };
}

/**
 * The log's figures once today's tokens have grown by what the emulator answered since `mark` (the
 * record is appended just after the answer; VS Code may ask a model for the chat's title too).
 */
async function usageLogAfter(ctx: UiContext, before: number, mark: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const recorded = usageLog(ctx);
    const billed = (await emulatorRequests(ctx)).slice(mark).filter((r) => r.status === 200 && typeof r.totalTokens === 'number');
    const billedTokens = billed.reduce((sum, r) => sum + r.totalTokens!, 0);
    const grown = recorded.todayTokens - before;
    if ((billed.length > 0 && grown === billedTokens) || Date.now() > deadline) return { ...recorded, grown, billed: billed.length, billedTokens };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** An empty conversation in the Chat view, whether a scenario before left the view open or hid it. */
async function freshChat(ctx: UiContext): Promise<void> {
  await newChat(ctx);
  await ctx.page.locator('.interactive-session .interactive-input-part .monaco-editor').first().waitFor({ state: 'visible', timeout: 10_000 });
}

const PRICES = {
  'gw-chat': { inputPrice: 2.5, outputPrice: 10 },
  'gw-chat-pro': { inputPrice: 5, outputPrice: 15 },
  // The Chat view's picker may still hold gw-chat-mini from an earlier scenario (6, 27-polish-model).
  'gw-chat-mini': { inputPrice: 0.5, outputPrice: 2 },
  'gw-code': { inputPrice: 1.25, outputPrice: 10 },
};

interface PageLook {
  text: string;
  background: string;
  barFill: string;
  bars: number;
}

/** The usage page's frame once its charts are drawn, polled (webviews load in nested frames). */
async function usagePage(ctx: UiContext, ready: (look: PageLook) => boolean, timeoutMs = 60_000): Promise<{ frame: Frame; look: PageLook }> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    for (const frame of ctx.page.frames()) {
      const look = await frame
        .evaluate(() => {
          const bar = document.querySelector('#by-surface svg rect');
          if (!bar) return undefined;
          return {
            text: document.body.innerText,
            background: getComputedStyle(document.body).backgroundColor,
            barFill: getComputedStyle(bar).fill,
            bars: document.querySelectorAll('#by-surface svg rect').length,
          };
        })
        .catch(() => undefined);
      // A re-render (a new record) reloads the page: its stylesheet is in once the bars have a colour.
      if (look && ready(look) && !/^(none|rgb\(0, 0, 0\))$/.test(look.barFill)) return { frame, look };
      if (look) last = `bar fill ${look.barFill}; ${look.text}`;
    }
    if (Date.now() > deadline) throw new Error(`the usage page did not draw its charts within ${timeoutMs / 1000}s (it shows: ${last.slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** No side bars, no panel: room for the page. */
async function roomForThePage(ctx: UiContext): Promise<void> {
  for (const command of ['View: Close Primary Side Bar', 'View: Hide Secondary Side Bar', 'View: Hide Panel', 'View: Close Panel']) {
    await ctx.wb.runCommand(command, { timeoutMs: 4_000 }).catch(() => ctx.page.keyboard.press('Escape'));
  }
}

/** The explorer back (Ctrl+Shift+E): a reload (ensureUserSettings) waits for its rows. */
async function showExplorer(ctx: UiContext): Promise<void> {
  await ctx.page.keyboard.press('Escape');
  await ctx.page.keyboard.press('Control+Shift+E');
  await ctx.page.waitForSelector('.explorer-folders-view .monaco-list-row', { state: 'visible', timeout: 10_000 }).catch(() => undefined);
}

/** Switches the theme live, as a person does (no reload: the open page must follow by itself). */
async function pickTheme(ctx: UiContext, theme: string): Promise<void> {
  await ctx.wb.runCommand('Preferences: Color Theme');
  await ctx.page.keyboard.insertText(theme);
  await ctx.wb.quickPickRow(theme).waitFor({ state: 'visible', timeout: 10_000 });
  await ctx.page.keyboard.press('Enter');
  await ctx.wb.waitForQuickInputClosed();
}

/** Relative luminance of an `rgb(r, g, b)` colour, 0 (black) to 1 (white). */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
  return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
}

export const usageScenario: Scenario = {
  id: '13-usage',
  title: '"Gateway: Show Usage": the day\'s tokens and cost per model and per surface, in the dark and the light theme',
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    try {
      await s.step(
        'usage-dark',
        'a question to @gateway, then F1 → "Gateway: Show Usage": today\'s cost, charts per model and per surface (what the log holds), dark theme',
        async () => {
          const before = usageLog(ctx).todayTokens;
          const mark = (await emulatorRequests(ctx)).length;
          const prompt = '@gateway what does this question cost?';
          await freshChat(ctx);
          await ask(ctx, prompt);
          await waitForResponse(ctx, prompt, /Echo: what does this question cost\?/);
          const recorded = await usageLogAfter(ctx, before, mark);
          s.check(recorded.billed >= 1, `the question reached the emulator and was answered (${recorded.billed} request(s))`);
          s.check(recorded.grown === recorded.billedTokens, `the log grew by the emulator's ${recorded.billedTokens} tokens (${recorded.grown})`);
          // Prices and the dark theme after the question: the settings' change reloads the page, which the chat would not survive.
          await ensureUserSettings(ctx, { 'gateway.models': PRICES, 'workbench.colorTheme': 'Default Dark Modern' });

          await roomForThePage(ctx);
          await ctx.wb.runCommand('Gateway: Show Usage');
          const todayText = `${recorded.todayTokens.toLocaleString('en-US')} tokens`;
          const { look } = await usagePage(ctx, (page) => page.text.includes(todayText));
          const labels = ["Today's cost", "This month's cost", ...[...recorded.surfaces].map((surface) => SURFACE_LABELS[surface] ?? surface)];
          for (const label of labels) s.check(look.text.includes(label), `the page shows "${label}"`);
          s.check(recorded.surfaces.has('chat'), `the log on disk has the chat request (it has ${[...recorded.surfaces].join(', ') || 'none'})`);
          // The figure's number is the cost (said once; the line under it gives the tokens), and the cost chart is drawn.
          s.check(/Today's cost\s+\d+\.\d{2}/.test(look.text) && look.text.includes('Cost per day'), 'with prices set, the page shows costs');
          s.check(look.bars >= recorded.surfaces.size, `bars per surface drawn (${look.bars})`);
          s.check(luminance(look.background) < 0.4, `a dark background (${look.background})`);
        },
      );
      await s.step('usage-light', 'Preferences: Color Theme → Light Modern: the open page follows in light colours', async () => {
        await pickTheme(ctx, 'Light Modern');
        const { look } = await usagePage(ctx, (page) => luminance(page.background) > 0.6);
        s.check(look.text.includes('@gateway chat'), 'the page still shows its figures');
      });
    } finally {
      // A retry reloads the page (ensureUserSettings), which waits for the explorer.
      await showExplorer(ctx);
    }
  },
};
