// Issue 27's one chat model as a user sees it: the status bar's pick moves the Chat view's picker, each answer
// names its model, a pick in the Chat view answers without rewriting gateway.chatModel.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario, UiContext } from './harness';
import { ask, chatPickerModel, ensureKey, ensureUserSettings, newChat, normalStatus, pickChatModel, waitForResponse, waitForStatus } from './gateway';

const CHAT = '.interactive-session';

function userSetting(ctx: UiContext, key: string): unknown {
  const file = path.join(ctx.server.runDir, 'ud', 'User', 'settings.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[key];
}

export const polishModelScenario: Scenario = {
  id: '27-polish-model',
  title: 'one chat model: Select Chat Model moves the Chat view picker; each answer names its model; a Chat view pick answers, gateway.chatModel stays',
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    await ensureUserSettings(ctx, { 'gateway.chatModel': undefined });
    await newChat(ctx);

    await s.step(
      'status-bar-pick',
      '"Gateway: Select Chat Model" → gw-chat-pro: the status bar and the Chat view\'s picker both show gw-chat-pro',
      async () => {
        await ctx.wb.runCommand('Gateway: Select Chat Model');
        await ctx.wb.waitForQuickInput('Gateway: Select Chat Model');
        await ctx.wb.quickPickRow('gw-chat-pro').click({ timeout: 15_000 });
        await ctx.wb.waitForQuickInputClosed();
        await waitForStatus(ctx, normalStatus('gw-chat-pro'));
        await ctx.page
          .waitForFunction(
            `(document.querySelector('${CHAT} .interactive-input-part .model-picker-item .chat-input-picker-label')?.textContent || '').trim() === 'gw-chat-pro'`,
            undefined,
            { timeout: 15_000 },
          )
          .catch(() => undefined);
        s.check((await chatPickerModel(ctx)) === 'gw-chat-pro', `the Chat view's picker shows gw-chat-pro (it shows ${await chatPickerModel(ctx)})`);
      },
    );

    await s.step('answer-names-model', '"@gateway hello": the answer ends with "Answered by gw-chat-pro"', async () => {
      await ask(ctx, '@gateway hello');
      const response = await waitForResponse(ctx, 'hello', /Answered by `?gw-chat-pro/, 30_000, true);
      s.check(response.errors.length === 0, `no error (${JSON.stringify(response.errors)})`);
    });

    await s.step(
      'chat-view-pick',
      'gw-chat-mini picked in the Chat view: the answer names gw-chat-mini, the status bar follows, gateway.chatModel is still gw-chat-pro',
      async () => {
        await pickChatModel(ctx, 'gw-chat-mini');
        await ask(ctx, '@gateway which model?');
        await waitForResponse(ctx, 'which model?', /Answered by `?gw-chat-mini/, 30_000);
        await waitForStatus(ctx, normalStatus('gw-chat-mini'));
        s.check(userSetting(ctx, 'gateway.chatModel') === 'gw-chat-pro', `gateway.chatModel unchanged (${String(userSetting(ctx, 'gateway.chatModel'))})`);
      },
    );

    await s.step('repeated-mention', '"@gateway @gateway hello twice": answered as "hello twice", not as a question about "@gateway"', async () => {
      await ask(ctx, '@gateway @gateway hello twice');
      const response = await waitForResponse(ctx, 'hello twice', /Echo: /, 30_000);
      s.check(
        /Echo: hello twice/.test(response.text) && !/Echo: @gateway/.test(response.text),
        `the question sent was "hello twice" (${response.text.slice(0, 200)})`,
      );
    });
  },
};
