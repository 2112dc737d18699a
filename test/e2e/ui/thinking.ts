// A @gateway answer from a model that thinks (the emulator's DeepSeek-style dialect): the
// thinking is one collapsed part in the answer, not in its text, and opens beside the chat.
import { ensureKey } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import type { Scenario } from './harness';

const CHAT_MODELS = ['gw-chat', 'gw-chat-pro', 'gw-chat-mini'];
const RESPONSE = '.interactive-session .interactive-response';
const REASONING =
  'The user asks which option to take. Option one is faster but fragile; option two is simpler and easier to test. Weighing both, the second option is the better choice.';
const ANSWER = 'Take the second option: it is simpler and easier to test.';

export const thinkingScenario: Scenario = {
  id: '14-thinking',
  title: "@gateway with a DeepSeek-style model: the answer's thinking collapsed in the chat, then opened beside it",
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    // Whichever chat model the picker is on speaks the dialect for this scenario.
    for (const model of CHAT_MODELS) ctx.emulator.setDialect(model, 'deepseek');
    ctx.emulator.script('demo-key', [{ endpoint: 'chat', reasoning: REASONING, text: ANSWER }]);
    const prompt = '@gateway which option should I take?';
    try {
      await s.step('question-sent', `"${prompt}" sent in a new chat`, async () => {
        await newChat(ctx);
        await ask(ctx, prompt);
      });
      await s.step(
        'thinking-collapsed',
        'the answer shows, with its thinking as one collapsed "Thinking (N characters)" part and not in the text',
        async () => {
          const response = await waitForResponse(ctx, prompt, /Take the second option/);
          const title = `Thinking (${REASONING.length} characters)`;
          s.check(response.buttons.includes(title), `the collapsed part "${title}" is in the answer (buttons ${JSON.stringify(response.buttons)})`);
          s.check(!response.text.includes('Weighing both'), `the thinking is not in the answer's text ("${response.text}")`);
          s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        },
      );
      const part = ctx.page
        .locator(`${RESPONSE} .monaco-button`)
        .filter({ hasText: /^\s*Thinking \(/ })
        .last();
      await s.step('thinking-expanded', "opened in the chat: the answer's steps unfold and show the Thinking part", async () => {
        // VS Code folds a finished answer's steps (the "Thinking…" progress and the part) under "Completed N steps".
        const folded = ctx.page.locator(`${RESPONSE} details.completed-response-disclosure:not([open]) > summary`).last();
        if (await folded.isVisible()) await folded.click({ timeout: 10_000 });
        await part.waitFor({ state: 'visible', timeout: 10_000 });
      });
      await s.step('thinking-opened', 'a click on the part opens the thinking beside the chat, as the model wrote it', async () => {
        await part.click({ timeout: 10_000 });
        await ctx.page
          .locator('.editor-group-container .tab')
          .filter({ hasText: /Thinking \d+\.md/ })
          .first()
          .waitFor({ state: 'visible', timeout: 15_000 });
        await ctx.page
          .locator('.editor-group-container .monaco-editor .view-lines')
          .filter({ hasText: 'Weighing both' })
          .first()
          .waitFor({ state: 'visible', timeout: 15_000 });
      });
    } finally {
      for (const model of CHAT_MODELS) ctx.emulator.setDialect(model, null);
    }
  },
};
