// Issue 27, item 2, as a person meets it: limited-key (1 request per window, no limit headers).
// Setting the key does not leave the status bar "rate limited" before any question, nor claims
// limits the Gateway never reported; a question that has to wait shows one waiting line (how
// long and until when) while the status bar counts down, then the answer.
import type { Scenario, UiContext } from './harness';
import { chatCalls, normalStatus, setApiKey, statusText, waitForStatus } from './gateway';
import { ask, newChat, responseTo } from './chatActions';

const WAIT_LINE = /waiting \d+ s/g;

/** Polls the response to `prompt` until `done` shows in it: the most waiting lines it ever showed at once, and the status texts seen. */
async function watchWait(ctx: UiContext, prompt: string, done: RegExp, timeoutMs: number): Promise<{ maxLines: number; line: string; statuses: string[] }> {
  const deadline = Date.now() + timeoutMs;
  const seen = { maxLines: 0, line: '', statuses: [] as string[] };
  for (;;) {
    const response = await responseTo(ctx, prompt);
    const text = response?.text ?? '';
    const lines = text.match(WAIT_LINE) ?? [];
    if (lines.length > seen.maxLines) seen.maxLines = lines.length;
    if (lines.length > 0 && !seen.line) seen.line = /Rate limit reached[^.]*\./.exec(text)?.[0] ?? text;
    const status = await statusText(ctx).catch(() => '');
    if (status && seen.statuses.at(-1) !== status) seen.statuses.push(status);
    if (done.test(text)) return seen;
    if (Date.now() > deadline)
      throw new Error(`no "${done.source}" in the answer to "${prompt}" within ${timeoutMs / 1000}s (it shows ${JSON.stringify(text)})`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export const limitWaitScenario: Scenario = {
  id: 'i27-limit-wait',
  title: 'limited-key: no "rate limited" before any question, no invented limits, one waiting line that says until when, the status bar counting down',
  async run(ctx, s) {
    await s.step('key-set', 'Set API Key with limited-key: the status bar is in its normal state and says the Gateway reported no limits', async () => {
      await setApiKey(ctx, 'limited-key');
      const status = await waitForStatus(ctx, normalStatus(), 30_000);
      s.check(!/rate limited/.test(status), `not "rate limited" before any question ("${status}")`);
      s.check(!/\d+\/60 req/.test(status), `no 60-a-minute limit the Gateway never reported ("${status}")`);
    });

    const first = '@gateway hello';
    await s.step('first-answer', `"${first}": the answer arrives`, async () => {
      await newChat(ctx);
      await ask(ctx, first);
      await watchWait(ctx, first, /Echo: hello/, 40_000);
    });

    const second = '@gateway hello again';
    const sentAt = Date.now();
    await s.step(
      'one-waiting-line',
      `"${second}" at once: one line "Rate limit reached — waiting N s (until …)" while the status bar counts down`,
      async () => {
        await ask(ctx, second);
        await waitForStatus(ctx, /rate limited, \d+s/, 15_000);
        const response = await responseTo(ctx, second);
        s.check(
          /Rate limit reached — waiting \d+ s \(until [^;]+; the status bar counts down\)/.test(response?.text ?? ''),
          `the line says how long and until when (${JSON.stringify(response?.text)})`,
        );
      },
    );

    await s.step('answered', 'the answer "Echo: hello again" follows; the chat never showed a second waiting line; the countdown moved', async () => {
      const seen = await watchWait(ctx, second, /Echo: hello again/, 40_000);
      s.check(seen.maxLines <= 1, `at most one waiting line at any time (saw ${seen.maxLines}: ${JSON.stringify(seen.line)})`);
      // A wait of a second or two (the first answer took most of the window) has no second value to show.
      const countdown = seen.statuses.filter((t) => /rate limited, \d+s/.test(t));
      const longest = Math.max(0, ...countdown.map((t) => Number(/(\d+)s$/.exec(t)?.[1] ?? 0)));
      s.check(longest < 3 || countdown.length >= 2, `the status bar counted down (${JSON.stringify(seen.statuses)})`);
      const calls = await chatCalls(ctx, sentAt);
      s.check(calls.at(-1)?.status === 200, `the last chat call was answered (${JSON.stringify(calls.map((c) => c.status))})`);
      await waitForStatus(ctx, normalStatus(), 15_000);
    });
  },
};
