// The models VS Code's picker lists while the Gateway cannot list them (issue 39, item 1): VS Code hands @gateway
// a question only with a model selected, so an empty list ended every question in "Language model unavailable".
// Real lists from the emulator over HTTP, a closed port for a Gateway that is away.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectionError, type ModelInfo } from '../../../src/gateway/common';
import { ModelListMemory, type ListStore } from '../../../src/models/common/pickerModels';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeClient, signal } from '../helpers/clients';

let emulator: Emulator;
let away: string;
before(async () => {
  emulator = await startEmulator({ port: 0 });
  away = `http://127.0.0.1:${await closedPort()}/v1`;
});
after(() => emulator.close());

/** globalState as the extension has it: kept across windows; here a map. */
function memoryStore(): ListStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => void values.set(key, value) };
}

const ids = (models: readonly ModelInfo[]) => models.map((m) => m.id).sort();
const listAt = (baseUrl: string, key = 'demo-key') => makeClient(baseUrl, key).listModels({ signal: signal() });

describe("the models VS Code's picker offers", () => {
  test('the base URL moved to an address that does not answer: the last list stays offered, not an empty picker', async () => {
    let baseUrl = emulator.baseUrl;
    const memory = new ModelListMemory(memoryStore(), () => baseUrl);
    memory.remember(await listAt(baseUrl));
    assert.deepEqual(ids(memory.offered()), ['gw-chat', 'gw-chat-mini', 'gw-chat-pro', 'gw-code']);

    baseUrl = away;
    await assert.rejects(listAt(baseUrl), ConnectionError);
    assert.deepEqual(memory.lastKnown(), [], "another address's list is not this one's (no default model is taken from it)");
    assert.deepEqual(ids(memory.offered()), ['gw-chat', 'gw-chat-mini', 'gw-chat-pro', 'gw-code'], 'still offered while this address gives none');
  });

  test('a malformed address: the last list stays offered', async () => {
    let baseUrl = emulator.baseUrl;
    const memory = new ModelListMemory(memoryStore(), () => {
      if (baseUrl === 'malformed') throw new Error('"gateway.baseUrl" is not a full address.');
      return baseUrl;
    });
    memory.remember(await listAt(baseUrl, 'small-key'));
    baseUrl = 'malformed';
    assert.deepEqual(ids(memory.offered()), ['gw-chat-mini']);
  });

  test('never listed anywhere: nothing to offer (no made-up model, which VS Code would keep selected once the real list came)', async () => {
    const memory = new ModelListMemory(memoryStore(), () => away);
    await assert.rejects(listAt(away), ConnectionError);
    assert.deepEqual(memory.offered(), []);
  });

  test('once the new address lists, its own list is what is offered and remembered', async () => {
    let baseUrl = away;
    const store = memoryStore();
    const memory = new ModelListMemory(store, () => baseUrl);
    baseUrl = emulator.baseUrl;
    memory.remember(await listAt(baseUrl, 'small-key'));
    assert.deepEqual(ids(memory.lastKnown()), ['gw-chat-mini']);
    assert.deepEqual(ids(new ModelListMemory(store, () => baseUrl).offered()), ['gw-chat-mini'], 'another window reads the same list');
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
