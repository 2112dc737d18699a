// Keys that cannot go in a header are refused up front, never echoed; a new key is adopted only once the gateway takes it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  apiKeyProblem,
  AuthError,
  checkAndStoreKey,
  checkKeyOrigin,
  ConnectionError,
  KeyOriginError,
  originOf,
  type RetryNotice,
} from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { systemClock } from '../../../src/base/common/ports';
import { startEmulator, type Emulator } from '../../emulator/server';
import { MemoryLogger, collect, makeClient, signal } from '../helpers/clients';
import { VirtualClock } from '../helpers/clock';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const SECRET = 'live0123456789abcdef';
const unsendable: [string, string][] = [
  ['an inner line feed', `${SECRET}\nmore`],
  ['an inner carriage return', `${SECRET}\rmore`],
  ['a NUL', `${SECRET}\u0000more`],
  ['a zero-width space', `${SECRET}\u200b`],
  ['typographic quotes', `\u201c${SECRET}\u201d`],
  ['an accented letter', `${SECRET}\u00e9`],
  ['a DEL', `${SECRET}\u007f`],
  ['an inner space', `${SECRET} more`],
];

describe('apiKeyProblem', () => {
  test('a key of printable ASCII is fine', () => {
    assert.equal(apiKeyProblem('sk-Abc_123.xyz~!'), undefined);
  });

  test('an empty key asks for one', () => assert.equal(apiKeyProblem(''), 'Enter a key.'));

  for (const [what, key] of unsendable) {
    test(`${what}: says what is wrong, without the key`, () => {
      const problem = apiKeyProblem(key);
      assert.ok(problem);
      assert.ok(!problem.includes(SECRET));
    });
  }

  test('names the kind of character', () => {
    assert.match(apiKeyProblem(`${SECRET}\u200b`)!, /invisible/);
    assert.match(apiKeyProblem(`${SECRET}\r\n${SECRET}`)!, /line break/);
    assert.match(apiKeyProblem(`\u201c${SECRET}\u201d`)!, /not plain ASCII/);
  });
});

describe('a stored key that cannot be sent', () => {
  for (const [what, key] of unsendable) {
    test(`${what}: AuthError saying to set the key again, nothing sent, no retry, key nowhere`, async () => {
      const logger = new MemoryLogger();
      const clock = new VirtualClock();
      const notices: RetryNotice[] = [];
      const error = await makeClient(emulator.baseUrl, key, { logger, clock })
        .listModels({ signal: signal(), onRetry: (n) => notices.push(n) })
        .catch((e: unknown) => e);
      assert.ok(error instanceof AuthError, String(error));
      assert.match(error.message, /"Gateway: Set API Key"/);
      assert.ok(!error.message.includes(SECRET));
      assert.equal(emulator.requests.length, 0);
      assert.deepEqual(clock.sleeps, []);
      assert.deepEqual(notices, []);
      assert.ok(logger.lines.every((line) => !line.includes(SECRET)));
    });
  }

  test('a stream request is refused the same way', async () => {
    const stream = makeClient(emulator.baseUrl, `${SECRET}\u200b`).chatStream(
      { model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] },
      { signal: signal() },
    );
    await assert.rejects(collect(stream), AuthError);
    assert.equal(emulator.requests.length, 0);
  });

  test('surrounding whitespace is not part of the key', async () => {
    const models = await makeClient(emulator.baseUrl, ' demo-key\n').listModels({ signal: signal() });
    assert.ok(models.length > 0);
  });
});

test('a connection failure never shows the key, even when fetch quotes it', async () => {
  // A base URL fetch cannot parse: its error, and so the message, quotes the address that holds the key here.
  const error = await makeClient(`http://${SECRET}:99999/v1`, SECRET)
    .listModels({ signal: signal() })
    .catch((e: unknown) => e);
  assert.ok(error instanceof ConnectionError, String(error));
  assert.match(error.message, /gateway\.baseUrl/);
  assert.ok(!error.message.includes(SECRET), error.message);
  assert.equal(error.cause, undefined);
});

describe('checking and adopting a new key', () => {
  /** The extension's limit state after the current key ran into an empty balance. */
  async function depletedLimits(): Promise<LimitTracker> {
    const limits = new LimitTracker(systemClock);
    await assert.rejects(makeClient(emulator.baseUrl, 'empty-key', { limits }).listModels({ signal: signal() }));
    assert.equal(limits.snapshot().balance, 'depleted');
    return limits;
  }

  function check(key: string, limits: LimitTracker, stored: string[]) {
    const deps = { client: makeClient(emulator.baseUrl, key), limits, store: async (k: string, origin: string) => void stored.push(k, origin) };
    return checkAndStoreKey(key, deps, signal());
  }

  test("a mistyped key (401) is not stored and leaves the current key's state alone", async () => {
    const limits = await depletedLimits();
    const stored: string[] = [];
    assert.deepEqual(await check('typo-key', limits, stored), { kind: 'rejected' });
    assert.deepEqual(stored, []);
    assert.equal(limits.snapshot().balance, 'depleted');
  });

  test("an accepted key is stored, and only then is the old key's state dropped", async () => {
    const limits = await depletedLimits();
    const stored: string[] = [];
    const outcome = await check('demo-key', limits, stored);
    assert.equal(outcome.kind, 'accepted');
    assert.ok(outcome.kind === 'accepted' && outcome.models.some((m) => m.id === 'gw-chat'));
    assert.deepEqual(stored, ['demo-key', new URL(emulator.baseUrl).origin], 'stored with the origin it was checked against');
    assert.equal(limits.snapshot().balance, 'ok');
    // The old key's window is gone; what the check's own answer reported is the new key's.
    assert.equal(limits.snapshot().limits, 'reported');
    assert.equal(limits.snapshot().requestsRemaining, limits.snapshot().requestLimit - 1, "the check's request counts");
  });

  test('a genuine key on an empty account is stored, and the state says so', async () => {
    const limits = new LimitTracker(systemClock);
    const stored: string[] = [];
    const outcome = await check('empty-key', limits, stored);
    assert.equal(outcome.kind, 'empty_balance');
    assert.deepEqual(stored, ['empty-key', new URL(emulator.baseUrl).origin]);
    assert.equal(limits.snapshot().balance, 'depleted');
  });

  test('a check that could not run stores nothing', async () => {
    const limits = await depletedLimits();
    const stored: string[] = [];
    const deps = { client: makeClient('http://127.0.0.1:1/v1', 'demo-key'), limits, store: async (k: string) => void stored.push(k) };
    const outcome = await checkAndStoreKey('demo-key', deps, signal());
    assert.equal(outcome.kind, 'failed');
    assert.deepEqual(stored, []);
    assert.equal(limits.snapshot().balance, 'depleted');
  });
});

describe('the key is bound to the origin it was checked against', () => {
  const bound = (key: string, origin: string) => ({ getApiKey: async () => key, keyOrigin: async () => origin });

  test('a request to another origin is refused before anything leaves', async () => {
    emulator.reset();
    const client = makeClient(emulator.baseUrl, undefined, { apiKey: bound('demo-key', 'https://gateway.example') });
    await assert.rejects(client.listModels({ signal: signal() }), (e: unknown) => {
      assert.ok(e instanceof KeyOriginError);
      assert.equal(e.keyOrigin, 'https://gateway.example');
      assert.equal(e.requestOrigin, new URL(emulator.baseUrl).origin);
      assert.ok(!e.message.includes('demo-key'));
      return true;
    });
    assert.equal(emulator.requests.length, 0, 'no request went out');
  });

  test('same scheme, host and port: the key goes; another port is another origin', async () => {
    emulator.reset();
    const origin = new URL(emulator.baseUrl).origin;
    const models = await makeClient(emulator.baseUrl, undefined, { apiKey: bound('demo-key', origin) }).listModels({ signal: signal() });
    assert.ok(models.length > 0);
    const otherPort = `http://127.0.0.1:${Number(new URL(emulator.baseUrl).port) + 1}`;
    await assert.rejects(makeClient(emulator.baseUrl, undefined, { apiKey: bound('demo-key', otherPort) }).listModels({ signal: signal() }), KeyOriginError);
    assert.equal(emulator.requests.length, 1);
  });

  test('checkKeyOrigin: the pure rule', () => {
    assert.doesNotThrow(() => checkKeyOrigin(undefined, 'http://anything.example/v1'));
    assert.doesNotThrow(() => checkKeyOrigin('https://gw.example', 'https://gw.example/v1/models'));
    assert.throws(() => checkKeyOrigin('https://gw.example', 'http://gw.example/v1'), KeyOriginError);
    assert.throws(() => checkKeyOrigin('https://gw.example', 'https://gw.example.evil.test/v1'), KeyOriginError);
    assert.throws(() => checkKeyOrigin('https://gw.example', 'https://gw.example:8443/v1'), KeyOriginError);
    assert.equal(originOf('not a url'), undefined);
  });
});
