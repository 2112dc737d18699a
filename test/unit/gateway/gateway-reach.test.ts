// What the client learns of the Gateway itself, for the status bar (issue 39, item 1): unreachable, the key
// refused, the address invalid, or answering. Against the emulator and a closed port over real HTTP, in virtual time.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AuthError, ConnectionError } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { formatStatus } from '../../../src/status/common/statusView';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeClient, signal } from '../helpers/clients';
import { userSettings } from '../helpers/settings';
import { VirtualClock } from '../helpers/clock';

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'is the gateway reachable' }] };
let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());

const statusOf = (limits: LimitTracker, clock: VirtualClock) =>
  formatStatus({ model: 'gw-chat-mini', hasKey: true, snapshot: limits.snapshot(), siteUrl: 'https://gateway.example', now: clock.now() });

describe("the Gateway's state as the client saw it last", () => {
  test('a refused connection: unreachable, with the reason; the last good figures are not shown; the next answer clears it', async () => {
    const clock = new VirtualClock();
    const limits = new LimitTracker(clock);
    await makeClient(emulator.baseUrl, 'demo-key', { clock, limits }).chat(chat, { signal: signal() });
    assert.match(statusOf(limits, clock).text, /gw-chat-mini · \d+\/60 req/);

    const port = await closedPort();
    const away = `http://127.0.0.1:${port}/v1`;
    const error = await makeClient(away, 'demo-key', { clock, limits })
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionError);
    const snapshot = limits.snapshot();
    assert.equal(snapshot.reach, 'unreachable');
    assert.match(snapshot.reachProblem ?? '', new RegExp(`Could not reach the Gateway at ${away.replace(/\./g, '\\.')}`));
    const view = statusOf(limits, clock);
    assert.equal(view.state, 'unreachable');
    assert.equal(view.text, '$(debug-disconnect) Gateway unreachable');
    assert.doesNotMatch(view.text, /req|tok/, 'no figures of a Gateway that is not answering');
    const tip = view.tooltip.join('\n');
    assert.match(tip, /Could not reach the Gateway at/);
    assert.match(tip, /\[Open Settings\]\(command:workbench\.action\.openSettings\?%5B%22gateway\.baseUrl%22%5D\)/);

    await makeClient(emulator.baseUrl, 'demo-key', { clock, limits }).chat(chat, { signal: signal() });
    assert.equal(limits.snapshot().reach, 'ok');
    assert.equal(statusOf(limits, clock).state, 'normal');
  });

  test('a key the Gateway refuses (401): key refused, Set API Key; the key is in no message', async () => {
    const clock = new VirtualClock();
    const limits = new LimitTracker(clock);
    const secret = 'sk-not-a-real-key-4242';
    const error = await makeClient(emulator.baseUrl, secret, { clock, limits })
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof AuthError);
    assert.equal(limits.snapshot().reach, 'key_refused');
    const view = statusOf(limits, clock);
    assert.equal(view.state, 'key-refused');
    assert.equal(view.text, '$(key) Gateway: key refused');
    assert.match(view.tooltip.join('\n'), /\[Set API Key\]\(command:gateway\.setApiKey\)/);
    assert.ok(!JSON.stringify([view, limits.snapshot()]).includes(secret));
  });

  test('a malformed gateway.baseUrl: address invalid, naming the setting, before anything is sent', async () => {
    const clock = new VirtualClock();
    const limits = new LimitTracker(clock);
    const settings = userSettings({ baseUrl: 'gateway.example/v1' });
    const before = emulator.requests.length;
    const error = await makeClient('', 'demo-key', { clock, limits, baseUrl: () => settings.requireBaseUrl() })
      .chat(chat, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof Error && /gateway\.baseUrl/.test(error.message), String(error));
    assert.equal(emulator.requests.length, before, 'nothing sent');
    assert.equal(limits.snapshot().reach, 'address_invalid');
    const view = statusOf(limits, clock);
    assert.equal(view.state, 'address-invalid');
    assert.equal(view.text, '$(gear) Gateway: check gateway.baseUrl');
    assert.match(view.tooltip.join('\n'), /command:workbench\.action\.openSettings/);
  });

  test('another key (reset) forgets what was learned of the old one: state and limits unknown again', async () => {
    const clock = new VirtualClock();
    const limits = new LimitTracker(clock);
    await makeClient(emulator.baseUrl, 'wrong-key', { clock, limits })
      .chat(chat, { signal: signal() })
      .catch(() => undefined);
    assert.equal(limits.snapshot().reach, 'key_refused');
    limits.reset();
    assert.equal(limits.snapshot().reach, 'unknown');
    assert.equal(statusOf(limits, clock).text, '$(sparkle) gw-chat-mini · limits not known yet');
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
