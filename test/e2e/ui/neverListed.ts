// Issue 39, item 1, the part that was left, as a new user meets it: no API key yet, gateway.baseUrl at an address
// no model list ever came from. VS Code's model picker then had nothing of the Gateway's, and "@gateway hello" got
// VS Code's bare red "Language model unavailable" (no reason, no button) without the extension ever hearing of it.
// Now the picker holds one placeholder, "Gateway — set your API key"; the question reaches @gateway, which says what
// to do with a Set API Key button; the key set from that button, the Gateway's models replace the placeholder, the
// Chat view's picker moves onto one of them (VS Code would keep the vanished placeholder selected) and the next
// question is answered. The scenario ends on the suite's emulator with demo-key again, its picker on a Gateway model.
import type { Scenario, UiContext } from './harness';
import { chatPickerModel, ensureUserSettings, normalStatus, setApiKey, typeKeyAndEnter, waitForKeyToast, waitForStatus } from './gateway';
import { ask, chatButton, clickChatButton, newChat, waitForResponse } from './chatActions';
import { chatLayout } from './layout';
import { startEmulator, type Emulator } from '../../emulator/server';

const PASSWORD_BOX = '.quick-input-widget .quick-input-box input[type="password"]';
const PICKER_LABEL = '.interactive-session .interactive-input-part .model-picker-item .chat-input-picker-label';

/** Waits until the Chat view's model picker names a model matching `name`; returns what it names. */
async function waitForPicker(ctx: UiContext, name: RegExp, timeoutMs = 30_000): Promise<string> {
  await ctx.page
    .waitForFunction(
      `new RegExp(${JSON.stringify(name.source)}).test(document.querySelector(${JSON.stringify(PICKER_LABEL)})?.textContent?.trim() ?? '')`,
      undefined,
      { timeout: timeoutMs, polling: 200 },
    )
    .catch(() => undefined);
  return chatPickerModel(ctx).catch((err: Error) => err.message);
}

export const neverListedScenario: Scenario = {
  id: 'i39-never-listed',
  title:
    'no key, gateway.baseUrl never listed: the picker holds "Gateway — set your API key", @gateway says to set the key with a button (not "Language model unavailable"); the key set from it, a question is answered',
  layout: chatLayout,
  async run(ctx, s) {
    const fresh: Emulator = await startEmulator({ port: 0 });
    try {
      const prompt = '@gateway hello before any key';
      await s.step('no-key', `no key, gateway.baseUrl = ${fresh.baseUrl} (never listed): "${prompt}" is answered by @gateway with what to do`, async () => {
        await ensureUserSettings(ctx, { 'gateway.baseUrl': fresh.baseUrl });
        await ctx.wb.runCommand('Gateway: Clear API Key');
        ctx.key = undefined;
        await ctx.wb.clearNotifications();
        const status = await waitForStatus(ctx, /Gateway: Set API Key/, 30_000).catch((err: Error) => err.message);
        s.check(/Gateway: Set API Key/.test(status), `the status bar says no key, as before ("${status}")`);
        await newChat(ctx);
        const picker = await waitForPicker(ctx, /^Gateway — set your API key$/);
        s.check(picker === 'Gateway — set your API key', `the Chat view's picker holds the placeholder ("${picker}")`);
        await ask(ctx, prompt);
        // The answer streams: its whole sentence, then its button (CI's run under load read it half drawn).
        await waitForResponse(ctx, prompt, /No Gateway API key is set\.[\s\S]*to add one/, 60_000, true);
        await chatButton(ctx, 'Set API Key')
          .first()
          .waitFor({ state: 'visible', timeout: 15_000 })
          .catch(() => undefined);
        const response = await waitForResponse(ctx, prompt, /No Gateway API key is set/, 10_000, true);
        s.check(!/Language model unavailable/.test(response.text), `not VS Code's "Language model unavailable" (${JSON.stringify(response.text)})`);
        s.check(response.errors.length === 0, `no bare error box (${JSON.stringify(response.errors)})`);
        s.check(
          /No Gateway API key is set\. Run "?Gateway: Set API Key"? to add one/.test(response.text),
          `the answer says what to do (${JSON.stringify(response.text)})`,
        );
        s.check(response.buttons.includes('Set API Key'), `a "Set API Key" button (buttons: ${JSON.stringify(response.buttons)})`);
        const sent = fresh.requests.filter((r) => r.path !== '/v1/models');
        s.check(sent.length === 0, `nothing sent to the Gateway (${JSON.stringify(sent.map((r) => [r.path, (r.body as { model?: unknown })?.model]))})`);
        await s.crop('chat', '.interactive-session');
      });

      await s.step('key-from-the-chat', '"Set API Key" clicked in the answer, demo-key typed: saved; the picker moves onto a Gateway model', async () => {
        await clickChatButton(ctx, 'Set API Key', 1);
        await ctx.wb.waitForQuickInput('Gateway: Set API Key');
        const box = ctx.page.locator(PASSWORD_BOX);
        await box.waitFor({ state: 'visible', timeout: 10_000 });
        await typeKeyAndEnter(ctx, box, 'demo-key');
        await waitForKeyToast(ctx);
        await ctx.wb.clearNotifications();
        const picker = await waitForPicker(ctx, /^gw-/);
        s.check(/^gw-/.test(picker), `the Chat view's picker names a Gateway model, not the placeholder ("${picker}")`);
        await waitForStatus(ctx, normalStatus(), 30_000);
      });

      const next = '@gateway am I set up now';
      await s.step('answered', `"${next}" in a new chat: answered by the Gateway at the new address with a Gateway model`, async () => {
        await newChat(ctx);
        await ask(ctx, next);
        const response = await waitForResponse(ctx, next, /Echo: am I set up now/, 60_000, true);
        s.check(!/Language model unavailable/.test(response.text), `not "Language model unavailable" (${JSON.stringify(response.text)})`);
        const models = fresh.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => String((r.body as { model?: unknown })?.model));
        s.check(models.length > 0 && models.every((m) => /^gw-/.test(m)), `the question went to a Gateway model (${JSON.stringify(models)})`);
      });

      await s.step('back-to-normal', "gateway.baseUrl back to the suite's Gateway, demo-key set there: the status bar normal", async () => {
        await ensureUserSettings(ctx, { 'gateway.baseUrl': ctx.emulator.baseUrl });
        await setApiKey(ctx, 'demo-key');
        await ctx.wb.clearNotifications();
        await waitForStatus(ctx, normalStatus(), 30_000);
        const picker = await waitForPicker(ctx, /^gw-/);
        s.check(/^gw-/.test(picker), `the picker names a Gateway model ("${picker}")`);
      });
    } finally {
      await fresh.close();
    }
  },
};
