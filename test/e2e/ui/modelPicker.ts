// Scenario 6: the gateway's models in VS Code's own model picker (the Chat view's), and
// @gateway answering with the one picked there.
import type { Scenario } from './harness';
import { chatCalls, chatPickerModel, ensureKey, MODELS, normalStatus, openChatModelPicker, pickChatModel, waitForStatus } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';

export const chatModelPickerScenario: Scenario = {
  id: '6-chat-model-picker',
  title: "the gateway's models are in the Chat view's model picker; gw-chat-mini picked there answers @gateway",
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    await waitForStatus(ctx, normalStatus(), 30_000);
    // VS Code has the key's models: its picker names one of them.
    await ctx.page.waitForFunction(
      `/^gw-/.test(document.querySelector('.interactive-session .interactive-input-part .model-picker-item .chat-input-picker-label')?.textContent?.trim() ?? '')`,
      undefined,
      { timeout: 20_000 },
    );

    await s.step(
      'picker-open',
      'the model picker in the chat input, searched for "gw", lists gw-chat, gw-chat-pro, gw-chat-mini and gw-code as Gateway models',
      async () => {
        await newChat(ctx);
        const rows = await openChatModelPicker(ctx);
        for (const model of MODELS)
          s.check(
            rows.some((r) => r.startsWith(`${model}, Gateway`)),
            `${model} is listed as a Gateway model (rows: ${JSON.stringify(rows)})`,
          );
      },
    );
    await s.step('pick-gw-chat-mini', 'gw-chat-mini picked: the picker shows it', async () => {
      await pickChatModel(ctx, 'gw-chat-mini');
      s.check((await chatPickerModel(ctx)) === 'gw-chat-mini', 'the picker label is gw-chat-mini');
    });
    const prompt = '@gateway which model answers?';
    await s.step('answer-from-mini', `"${prompt}": the answer arrives, the emulator saw model gw-chat-mini, the status bar follows`, async () => {
      const since = Date.now();
      await ask(ctx, prompt);
      await waitForResponse(ctx, prompt, /Echo: which model answers\?/, 30_000);
      const calls = await chatCalls(ctx, since);
      const models = calls.map((c) => `${String(c.model)}→${c.status}`).join(', ');
      s.check(
        calls.length > 0 && calls.every((c) => c.model === 'gw-chat-mini'),
        `the chat completion used gw-chat-mini (GET /_emulator/requests: ${models || 'none'})`,
      );
      const status = await waitForStatus(ctx, normalStatus('gw-chat-mini'), 10_000).catch((err: Error) => err.message);
      s.check(/^gw-chat-mini /.test(status), `the status bar names gw-chat-mini (${status})`);
    });
    await s.step('picker-marks-current', 'opened again, the picker marks gw-chat-mini as the current model', async () => {
      const rows = await openChatModelPicker(ctx);
      s.check(
        rows.some((r) => r.startsWith('gw-chat-mini, Gateway') && /Current model/.test(r)),
        `gw-chat-mini is the current model (rows: ${JSON.stringify(rows)})`,
      );
    });
    await ctx.page.keyboard.press('Escape');
  },
};
