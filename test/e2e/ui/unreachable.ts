// Issue 39, item 1, as a person meets it: gateway.baseUrl points where no Gateway answers. Each question is
// answered in the chat with the reason, Open Settings and Retry (never VS Code's bare "Language model
// unavailable"), the Chat view's model picker keeps the Gateway's models, and the status bar says what is wrong
// instead of the last good figures. Three ways: an address of the same server that is not the API (404: the
// model list remembered for the old address does not apply, which left the picker empty before), a Gateway that
// stops answering (a second emulator, closed: connection refused), and a malformed address. The key is set for
// each server first, so nothing asks whether it may go to another address; the scenario ends on the suite's
// emulator with demo-key again.
import type { Scenario, Steps, UiContext } from './harness';
import { chatPickerModel, ensureUserSettings, normalStatus, setApiKey, statusItem, waitForStatus } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import { chatLayout } from './layout';
import { startEmulator, type Emulator } from '../../emulator/server';

/** Asks `prompt` in a new chat and checks the answer: `reason` in the chat, Open Settings, Retry, the picker on a Gateway model. */
async function answeredInChat(ctx: UiContext, s: Steps, prompt: string, reason: RegExp): Promise<void> {
  await newChat(ctx);
  await ask(ctx, prompt);
  const response = await waitForResponse(ctx, prompt, reason, 60_000, true);
  s.check(!/Language model unavailable/.test(response.text), `not VS Code's "Language model unavailable" (${JSON.stringify(response.text)})`);
  s.check(response.errors.length === 0, `no bare error box (${JSON.stringify(response.errors)})`);
  s.check(reason.test(response.text), `the answer gives the reason (${JSON.stringify(response.text)})`);
  s.check(!response.text.includes('\\'), `no Markdown escapes shown (${JSON.stringify(response.text)})`);
  s.check(response.buttons.includes('Open Settings'), `an "Open Settings" button (buttons: ${JSON.stringify(response.buttons)})`);
  // VS Code draws a followup as a button or a link under the last answer.
  const retry = ctx.page
    .locator('.interactive-session .monaco-button, .interactive-session a, .interactive-session [role="button"]')
    .filter({ hasText: /^\s*Retry\s*$/ });
  const retryShown =
    response.buttons.includes('Retry') ||
    (await retry
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(
        () => true,
        () => false,
      ));
  s.check(retryShown, 'a "Retry" followup under the answer');
  const picker = await chatPickerModel(ctx).catch((err: Error) => err.message);
  s.check(/^gw-/.test(picker), `the Chat view's picker names a Gateway model, not "Models" ("${picker}")`);
}

async function statusSays(ctx: UiContext, s: Steps, text: RegExp): Promise<void> {
  const status = await waitForStatus(ctx, text, 30_000).catch((err: Error) => err.message);
  s.check(text.test(status) && !/req|tok/.test(status), `status ${text} without figures ("${status}")`);
  const kind = await statusItem(ctx).evaluate((el) => el.className);
  s.check(kind.split(/\s+/).includes('error-kind'), `the item has the error kind (classes "${kind}")`);
}

async function keyAt(ctx: UiContext, baseUrl: string): Promise<void> {
  await ensureUserSettings(ctx, { 'gateway.baseUrl': baseUrl });
  await setApiKey(ctx, 'demo-key');
  await ctx.wb.clearNotifications();
  await waitForStatus(ctx, normalStatus(), 30_000);
}

export const unreachableScenario: Scenario = {
  id: 'i39-unreachable',
  title: 'no Gateway at gateway.baseUrl: the reason, Open Settings and Retry in the chat; the picker keeps its models; the status bar says why',
  layout: chatLayout,
  async run(ctx, s) {
    let away: Emulator | undefined;
    try {
      const notTheApi = ctx.emulator.baseUrl.replace(/\/v1$/, '/not-the-api/v1');
      await s.step('not-the-api', `demo-key set, then gateway.baseUrl = ${notTheApi} (404): answered in the chat, the picker kept`, async () => {
        await keyAt(ctx, ctx.emulator.baseUrl);
        await ensureUserSettings(ctx, { 'gateway.baseUrl': notTheApi });
        await answeredInChat(ctx, s, '@gateway is this the gateway', /404 Not Found\. Check the "gateway\.baseUrl" setting/);
        await statusSays(ctx, s, /Gateway unreachable/);
      });

      away = await startEmulator({ port: 0 });
      const awayUrl = away.baseUrl;
      await s.step('refused', `demo-key set at ${awayUrl}, then that Gateway stops: connection refused, answered in the chat`, async () => {
        await keyAt(ctx, awayUrl);
        await away?.close();
        away = undefined;
        await answeredInChat(ctx, s, '@gateway is the gateway reachable', /Could not reach the Gateway at [^ ]+ \(.*Check the "gateway\.baseUrl" setting/);
        await statusSays(ctx, s, /Gateway unreachable/);
      });

      await s.step(
        'malformed',
        'gateway.baseUrl = "gateway.example/v1" (no scheme): answered at once in the chat, the status bar names the setting',
        async () => {
          await ensureUserSettings(ctx, { 'gateway.baseUrl': 'gateway.example/v1' });
          await ctx.wb.clearNotifications();
          const started = Date.now();
          await answeredInChat(ctx, s, '@gateway is the address right', /gateway\.baseUrl/);
          s.check(Date.now() - started < 30_000, `answered without waiting (${Date.now() - started} ms)`);
          await statusSays(ctx, s, /check gateway\.baseUrl/);
        },
      );

      await s.step('back-to-normal', 'gateway.baseUrl back to the Gateway, demo-key set there: a question is answered, the status bar normal', async () => {
        await keyAt(ctx, ctx.emulator.baseUrl);
        const prompt = '@gateway is the gateway reachable now';
        await newChat(ctx);
        await ask(ctx, prompt);
        await waitForResponse(ctx, prompt, /Echo: is the gateway reachable now/, 60_000);
        await waitForStatus(ctx, normalStatus(), 30_000);
      });
    } finally {
      await away?.close();
    }
  },
};
