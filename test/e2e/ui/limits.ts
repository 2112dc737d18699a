// Scenarios 4–5: an empty balance (402) and a real rate limit (429) as a person sees them.
import type { Scenario } from './harness';
import { chatCalls, normalStatus, setApiKey, statusItem, statusText, waitForStatus } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';

export const emptyBalanceScenario: Scenario = {
  id: '4-empty-balance',
  title: 'a key with an empty balance: warning, error-coloured status bar, 402 message and "Top up" in the chat',
  async run(ctx, s) {
    await s.step('empty-key-set', 'Set API Key with empty-key: the key is kept and a warning with a "Top up" button says the balance is empty', async () => {
      const toast = await setApiKey(ctx, 'empty-key', /balance is empty/);
      s.check(/API key saved/.test(toast), `the warning says the key was saved ("${toast}")`);
      s.check(/Top up/.test(toast), `the warning offers "Top up" ("${toast}")`);
    });
    await s.step('status-error', 'the status bar item says "Top up" on the error background', async () => {
      await waitForStatus(ctx, /· Top up$/);
      const look = await statusItem(ctx).evaluate((el) => ({ cls: el.className, bg: getComputedStyle(el).backgroundColor }));
      s.check(look.cls.split(/\s+/).includes('error-kind'), `the item has the error kind (classes "${look.cls}")`);
      s.check(!/rgba\(0, 0, 0, 0\)|transparent/.test(look.bg), `the item has a background colour (${look.bg})`);
    });
    const prompt = '@gateway is there any balance left?';
    await s.step('chat-402', 'asked @gateway: the response says the balance is empty and offers a "Top up" button', async () => {
      await newChat(ctx);
      await ask(ctx, prompt);
      const response = await waitForResponse(ctx, prompt, /balance is empty/, 20_000, true);
      s.check(
        /balance is empty/.test(response.text) && /Top up/.test(response.text),
        `the response says "…balance is empty. Top up at …" (it shows "${response.text}")`,
      );
      s.check(response.buttons.includes('Top up'), `the response has a "Top up" button (buttons: ${JSON.stringify(response.buttons)})`);
      const status = await statusText(ctx);
      s.check(/Top up/.test(status), `the status bar still says "Top up" ("${status}")`);
    });
  },
};

export const rateLimitScenario: Scenario = {
  id: '5-rate-limit',
  title: 'limited-key (1 request per 8 s window, no rate-limit headers): a real 429, a countdown, then the answer',
  async run(ctx, s) {
    await s.step('limited-key-set', 'Set API Key with limited-key; the status bar settles to the normal state', async () => {
      await setApiKey(ctx, 'limited-key');
      // The key check takes the window's one request; its model list is the catalog's, so no listing spends another.
      // The Gateway reports no limits for this key, and the status bar says so.
      await waitForStatus(ctx, normalStatus(), 30_000);
    });
    const first = '@gateway first of two';
    await s.step('first-answer', `"${first}": the answer arrives (it takes the window's one request)`, async () => {
      await newChat(ctx);
      await ask(ctx, first);
      await waitForResponse(ctx, first, /Echo: first of two/, 30_000);
    });
    const second = '@gateway second of two';
    const sentAt = Date.now();
    let seconds = 0;
    await s.step('countdown', `"${second}" at once: the status bar counts down ("rate limited, Ns") and the chat says it is waiting`, async () => {
      await ask(ctx, second);
      const text = await waitForStatus(ctx, /rate limited, \d+s/, 15_000);
      seconds = Number(/rate limited, (\d+)s/.exec(text)?.[1]);
      await waitForResponse(ctx, second, /Rate limit reached — waiting \d+ s/, 10_000);
    });
    if (seconds >= 2) {
      await s.step('countdown-moves', `the countdown goes down from ${seconds}s while the answer waits`, async () => {
        await waitForStatus(ctx, new RegExp(`rate limited, (${Array.from({ length: seconds - 1 }, (_, i) => i + 1).join('|')})s`), (seconds + 2) * 1000);
        const pending = await waitForResponse(ctx, second, /Rate limit reached/, 1_000);
        s.check(!/Echo: second of two/.test(pending.text), `no answer yet during the wait ("${pending.text}")`);
      });
    }
    await s.step('answer-after-wait', 'after the wait the answer "Echo: second of two" arrives and the status bar is back to normal', async () => {
      await waitForResponse(ctx, second, /Echo: second of two/, 30_000);
      const waited = Date.now() - sentAt;
      await waitForStatus(ctx, normalStatus(), 10_000);
      const calls = await chatCalls(ctx, sentAt);
      const statuses = calls.map((c) => c.status).join(',');
      s.check(/^(429,)+200$/.test(statuses), `the emulator answered 429 then 200 to the second question (saw ${statuses || 'nothing'})`);
      s.check(waited >= (seconds - 1) * 1000, `the answer came after the countdown (${waited} ms after sending, countdown ${seconds}s)`);
    });
  },
};
