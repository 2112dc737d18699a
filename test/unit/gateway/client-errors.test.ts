// Every failure the spec names becomes the right typed error, retried only as the spec allows.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import {
  AbortError,
  AuthError,
  BalanceError,
  ConnectionError,
  GatewayClient,
  MissingApiKeyError,
  ModelNotFoundError,
  PreviousResponseNotFoundError,
  ProtocolError,
  RateLimitWaitTooLongError,
  ServerError,
  StreamInterruptedError,
  StreamTimeoutError,
  type RetryNotice,
  type StreamEvent,
} from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { startEmulator, type Emulator } from '../../emulator/server';
import { MemoryLogger, makeClient, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';

/** The emulator's time (rate windows, stream delays); a client that shares it waits in it too. */
const time = new VirtualClock();
let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({
    port: 0,
    clock: time,
    windowMs: 1000,
    keys: [
      { key: 'blind-key', rpm: 1, rateLimitHeaders: false },
      { key: 'slow-key', rpm: 1 },
    ],
  });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());
afterEach(() => {
  time.manual = false;
});

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
const respond = { model: 'gw-code', input: 'hello' };
const statuses = () => emulator.requests.map((r) => r.status);

describe('authentication and balance', () => {
  test('no key: MissingApiKeyError, and nothing is sent', async () => {
    await assert.rejects(makeClient(emulator.baseUrl, undefined).chat(chat, { signal: signal() }), MissingApiKeyError);
    assert.equal(emulator.requests.length, 0);
  });

  test('a wrong key: AuthError that says to set the key, never shows it, and is not retried', async () => {
    const logger = new MemoryLogger();
    const secret = 'sk-live-very-secret-1234567890';
    const error = await makeClient(emulator.baseUrl, secret, { logger })
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 401);
    assert.match(error.message, /Gateway: Set API Key/);
    assert.ok(!error.message.includes(secret));
    assert.ok(logger.lines.length > 0 && logger.lines.every((line) => !line.includes(secret)));
    assert.deepEqual(statuses(), [401]);
  });

  test('empty balance: BalanceError pointing at the billing page; the tracker says depleted until a success', async () => {
    const limits = new LimitTracker(time);
    const error = await makeClient(emulator.baseUrl, 'empty-key', { limits })
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof BalanceError);
    assert.equal(error.billingUrl, 'https://gateway.example/cabinet/billing');
    assert.match(error.message, /Top up at https:\/\/gateway\.example\/cabinet\/billing/);
    assert.equal(limits.snapshot().balance, 'depleted');
    assert.deepEqual(statuses(), [402]);
    await makeClient(emulator.baseUrl, 'demo-key', { limits }).chat(chat, { signal: signal() });
    assert.equal(limits.snapshot().balance, 'ok');
  });
});

describe('bad requests', () => {
  test('a model the key may not use: ModelNotFoundError naming the model', async () => {
    const error = await makeClient(emulator.baseUrl, 'small-key')
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ModelNotFoundError);
    assert.equal(error.param, 'model');
    assert.match(error.message, /"gw-chat" is not available.*Gateway: Select Chat Model/);
    assert.equal(error.model, 'gw-chat', 'the model travels with the error, to pick the right picker');
  });

  test('the code model on chat completions: ModelNotFoundError', async () => {
    await assert.rejects(makeClient(emulator.baseUrl, 'demo-key').chat({ ...chat, model: 'gw-code' }, { signal: signal() }), ModelNotFoundError);
  });

  test('an unknown previous_response_id: PreviousResponseNotFoundError', async () => {
    const error = await makeClient(emulator.baseUrl, 'demo-key')
      .respond({ ...respond, previousResponseId: 'resp_gone' }, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof PreviousResponseNotFoundError);
    assert.equal(error.param, 'previous_response_id');
  });

  test('a stored session that the gateway forgot: PreviousResponseNotFoundError on the next turn', async () => {
    const client = makeClient(emulator.baseUrl, 'demo-key');
    const first = await client.respond(respond, { signal: signal() });
    emulator.forgetResponses();
    await assert.rejects(client.respond({ ...respond, previousResponseId: first.id }, { signal: signal() }), PreviousResponseNotFoundError);
  });
});

describe('retries', () => {
  test('500: retried with exponential backoff and jitter, then succeeds', async () => {
    emulator.fault('demo-key', { kind: '500', times: 2 });
    const clock = new VirtualClock();
    const notices: RetryNotice[] = [];
    const result = await makeClient(emulator.baseUrl, 'demo-key', { clock, random: Math.random }).chat(chat, {
      signal: signal(),
      onRetry: (n) => notices.push(n),
    });
    assert.equal(result.text, 'Echo: hello');
    assert.deepEqual(statuses(), [500, 500, 200]);
    assert.equal(clock.sleeps.length, 2);
    assert.ok(clock.sleeps[0] >= 250 && clock.sleeps[0] <= 500, `first backoff ${clock.sleeps[0]}`);
    assert.ok(clock.sleeps[1] >= 500 && clock.sleeps[1] <= 1000, `second backoff ${clock.sleeps[1]}`);
    assert.deepEqual(
      notices.map((n) => [n.attempt, n.reason]),
      [
        [1, 'server_error'],
        [2, 'server_error'],
      ],
    );
  });

  test('500 every time: ServerError after a bounded number of retries', async () => {
    emulator.fault('demo-key', { kind: '500', times: 10 });
    const clock = new VirtualClock();
    await assert.rejects(makeClient(emulator.baseUrl, 'demo-key', { clock }).chat(chat, { signal: signal() }), ServerError);
    assert.deepEqual(statuses(), [500, 500, 500, 500]);
    assert.deepEqual(clock.sleeps, [375, 750, 1500]);
  });

  test('503: retried after 5 to 30 seconds, honouring Retry-After within that window', async () => {
    emulator.fault('demo-key', { kind: '503', times: 3 });
    const clock = new VirtualClock();
    await makeClient(emulator.baseUrl, 'demo-key', { clock, random: Math.random }).chat(chat, { signal: signal() });
    assert.equal(clock.sleeps.length, 3);
    for (const ms of clock.sleeps) assert.ok(ms >= 5000 && ms <= 30000, `503 wait ${ms}`);
    emulator.reset();
    emulator.fault('demo-key', { kind: '503', retryAfter: 12 });
    emulator.fault('demo-key', { kind: '503', retryAfter: 90 });
    const clock2 = new VirtualClock();
    await makeClient(emulator.baseUrl, 'demo-key', { clock: clock2 }).chat(chat, { signal: signal() });
    assert.deepEqual(clock2.sleeps, [12000, 30000]);
  });

  test('429: waits Retry-After, tells the caller, and then answers', async () => {
    const limits = new LimitTracker(time);
    const client = makeClient(emulator.baseUrl, 'blind-key', { clock: time, limits });
    const started = time.now();
    await client.chat(chat, { signal: signal() });
    const notices: RetryNotice[] = [];
    let waitingSeen = false;
    limits.onChange((snap) => (waitingSeen ||= snap.rateLimitedUntil !== undefined));
    const result = await client.chat(chat, { signal: signal(), onRetry: (n) => notices.push(n) });
    assert.equal(result.text, 'Echo: hello');
    assert.deepEqual(statuses(), [200, 429, 200]);
    assert.equal(notices.length, 1);
    assert.equal(notices[0].reason, 'rate_limit');
    assert.equal(notices[0].delayMs, 1000);
    assert.ok(waitingSeen, 'the limit state showed the wait');
    assert.equal(limits.snapshot().rateLimitedUntil, undefined);
    assert.equal(time.now() - started, 1000, 'the window, 1 s, passed in the emulator too');
  });

  test('429 asking for longer than the caller allows: RateLimitError with the wait', async () => {
    const client = makeClient(emulator.baseUrl, 'blind-key', { retry: { maxRateLimitWaitMs: 500 } });
    await client.chat(chat, { signal: signal() });
    const error = await client.chat(chat, { signal: signal() }).catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitWaitTooLongError);
    assert.equal(error.retryAfterMs, 1000);
    assert.match(error.message, /asked to wait 1 s/);
    assert.match(error.message, /https:\/\/gateway\.example\/cabinet\/limits/);
  });

  test('a refused connection: ConnectionError naming the base URL, after bounded retries', async () => {
    const port = await closedPort();
    const clock = new VirtualClock();
    const error = await makeClient(`http://127.0.0.1:${port}/v1`, 'demo-key', { clock })
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionError);
    assert.match(error.message, /127\.0\.0\.1:\d+\/v1.*gateway\.baseUrl/);
    assert.equal(clock.sleeps.length, 3);
  });

  test('cancelling during a retry wait ends the call at once', async () => {
    emulator.fault('demo-key', { kind: '503' });
    const controller = new AbortController();
    const clock = new VirtualClock();
    clock.manual = true; // the 5 s or more of the wait would not pass by themselves
    const started = clock.now();
    const call = makeClient(emulator.baseUrl, 'demo-key', { clock }).chat(chat, { signal: controller.signal });
    clock.onSleep = () => setImmediate(() => controller.abort());
    await assert.rejects(call, AbortError);
    assert.equal(clock.sleeps.length, 1);
    assert.equal(clock.now(), started, 'no time passed');
    assert.deepEqual(statuses(), [503]);
  });
});

describe('broken streams', () => {
  const partialOf = async (stream: AsyncIterable<StreamEvent>) => {
    let text = '';
    const error = await (async () => {
      for await (const event of stream) if (event.type === 'text') text += event.text;
    })().catch((e: unknown) => e);
    return { text, error };
  };

  for (const endpoint of ['chat', 'responses'] as const) {
    const open = (client: GatewayClient, options = { signal: signal() }) =>
      endpoint === 'chat' ? client.chatStream(chat, options) : client.respondStream(respond, options);

    test(`${endpoint}: a connection cut mid-stream keeps the partial text and is not retried`, async () => {
      emulator.script('demo-key', [{ text: 'alpha beta gamma delta epsilon zeta eta theta' }]);
      emulator.fault('demo-key', { kind: 'cut', afterDeltas: 3 });
      const { text, error } = await partialOf(open(makeClient(emulator.baseUrl, 'demo-key')));
      assert.ok(error instanceof StreamInterruptedError, String(error));
      assert.ok(text.length > 0 && 'alpha beta gamma delta epsilon zeta eta theta'.startsWith(text));
      assert.equal(error.partialText, text);
      assert.equal(emulator.requests.length, 1);
    });

    test(`${endpoint}: a malformed event is a ProtocolError with the partial text`, async () => {
      emulator.fault('demo-key', { kind: 'malformed', afterDeltas: 2 });
      const { text, error } = await partialOf(open(makeClient(emulator.baseUrl, 'demo-key')));
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.partialText, text);
    });

    test(`${endpoint}: a stalled stream is aborted after the idle timeout`, async () => {
      emulator.fault('demo-key', { kind: 'stall', afterDeltas: 2 });
      const clock = new VirtualClock();
      let text = '';
      let texts = 0;
      const error = await (async () => {
        for await (const event of open(makeClient(emulator.baseUrl, 'demo-key', { clock, idleTimeoutMs: 300 }))) {
          if (event.type !== 'text') continue;
          text += event.text;
          texts++;
          clock.advance(300); // 300 ms with nothing more: the stream stalled (a steady one survives 250 ms gaps, below)
        }
      })().catch((e: unknown) => e);
      assert.equal(texts, 1);
      assert.ok(error instanceof StreamTimeoutError, String(error));
      assert.match(error.message, /sent nothing for/);
      assert.equal(error.partialText, text);
      assert.ok(text.length > 0);
    });

    test(`${endpoint}: an in-stream error is a typed error with the partial text`, async () => {
      emulator.fault('demo-key', { kind: 'stream-error', afterDeltas: 2 });
      const { text, error } = await partialOf(open(makeClient(emulator.baseUrl, 'demo-key')));
      assert.ok(error instanceof ServerError, String(error));
      assert.ok(text.length > 0);
      assert.equal(error.partialText, text);
    });

    test(`${endpoint}: cancelling mid-stream stops at once with AbortError`, async () => {
      emulator.script('demo-key', [{ text: 'x'.repeat(400), chunkChars: 1, delayMs: 20 }]);
      time.manual = true; // the emulator sends a delta each time the test moves its time on
      const controller = new AbortController();
      let count = 0;
      const error = await (async () => {
        for await (const event of open(makeClient(emulator.baseUrl, 'demo-key'), { signal: controller.signal })) {
          if (event.type !== 'text') continue;
          if (++count === 3) controller.abort();
          else time.advance(20);
        }
      })().catch((e: unknown) => e);
      assert.ok(error instanceof AbortError, String(error));
      assert.equal(count, 3);
    });
  }

  test('a slow but steady stream is not timed out', async () => {
    // No letter that starts a form of the key (d, k, r, z for demo-key): the client would hold it back (decodedKeyGuard.ts) and this loop wait for it.
    emulator.script('demo-key', [{ text: 'abcefghijl', chunkChars: 1, delayMs: 250 }]);
    time.manual = true; // the emulator sends a delta each time the test moves its time on
    const started = time.now();
    let texts = 0;
    for await (const event of makeClient(emulator.baseUrl, 'demo-key', { clock: time, idleTimeoutMs: 300 }).chatStream(chat, { signal: signal() })) {
      if (event.type !== 'text') continue;
      texts++;
      time.advance(250); // the next delta comes 250 ms after this one: 2.5 s in all, well past 300 ms
    }
    assert.equal(texts, 10);
    assert.ok(time.now() - started >= 2500);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
