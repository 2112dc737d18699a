// The models VS Code's picker lists while the Gateway cannot list them (issue 39, item 1): VS Code hands @gateway
// a question only with a model selected, so an empty list ended every question in "Language model unavailable".
// Real lists from the emulator over HTTP, a closed port for a Gateway that is away.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectionError, MissingApiKeyError, type ModelInfo } from '../../../src/gateway/common';
import { ModelEndpoints } from '../../../src/models/common/modelEndpoints';
import {
  chatRequestModel,
  ModelListMemory,
  pickerOffer,
  placeholderRefusal,
  placeholderText,
  PLACEHOLDER_MODEL_ID,
  type ChatModelPorts,
  type ListStore,
  type PickerOfferPorts,
} from '../../../src/models/common/pickerModels';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient, signal } from '../helpers/clients';

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

  test("never listed anywhere: the memory has nothing to offer (the placeholder is pickerOffer's, below)", async () => {
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

// Issue 39, item 1, the part left: no key, or no list ever received. The picker then lists one placeholder (VS Code
// would answer "Language model unavailable" itself to an empty picker), which is never sent to the Gateway.
describe('the placeholder, before any list or without a key', () => {
  const emptyStore = () => new ModelListMemory(memoryStore(), () => emulator.baseUrl);
  const portsFor = (baseUrl: string, key: string | undefined, memory = emptyStore()): PickerOfferPorts => ({
    hasKey: async () => key !== undefined,
    list: (listSignal) => makeClient(baseUrl, key).listModels({ signal: listSignal }),
    offeredWhileAway: () => memory.offered(),
  });

  test('its id can never be a Gateway model id: a space and brackets, which no listed id has', async () => {
    assert.match(PLACEHOLDER_MODEL_ID, /[\s()]/);
    const listed = await listAt(emulator.baseUrl);
    assert.ok(
      listed.every((model) => !/[\s()]/.test(model.id)),
      `listed ids: ${ids(listed).join(', ')}`,
    );
  });

  test('no key: the placeholder that says to set it, and no request (even with a list remembered)', async () => {
    emulator.reset();
    const memory = emptyStore();
    memory.remember(await listAt(emulator.baseUrl));
    emulator.reset();
    const offer = await pickerOffer(portsFor(emulator.baseUrl, undefined, memory), signal());
    assert.deepEqual(offer, { kind: 'placeholder', reason: 'no-key' });
    assert.deepEqual(emulator.requests, [], 'nothing asked of the Gateway without a key');
    assert.equal(placeholderText('no-key').name, 'Gateway — set your API key');
    assert.match(placeholderText('no-key').tooltip, /"Gateway: Set API Key"/);
  });

  test('a key, and the list comes: the models, no placeholder', async () => {
    const offer = await pickerOffer(portsFor(emulator.baseUrl, 'demo-key'), signal());
    assert.equal(offer.kind, 'models');
    assert.deepEqual(ids(offer.kind === 'models' ? offer.models : []), ['gw-chat', 'gw-chat-mini', 'gw-chat-pro', 'gw-code']);
  });

  test('a key, no list ever received, and the Gateway does not answer: the placeholder with the reason', async () => {
    const offer = await pickerOffer(portsFor(away, 'demo-key'), signal());
    assert.equal(offer.kind, 'placeholder');
    assert.equal(offer.kind === 'placeholder' && offer.reason, 'not-listed');
    assert.match((offer.kind === 'placeholder' && offer.failure) || '', /Could not reach the Gateway/);
    assert.equal(placeholderText('not-listed').name, 'Gateway — not reachable');
  });

  test('a key, the Gateway does not answer, a list received before (any address): that list, not the placeholder', async () => {
    const memory = emptyStore();
    memory.remember(await listAt(emulator.baseUrl, 'small-key'));
    const offer = await pickerOffer(portsFor(away, 'demo-key', memory), signal());
    assert.deepEqual(offer.kind === 'models' && ids(offer.models), ['gw-chat-mini']);
    assert.match((offer.kind === 'models' && offer.failure) || '', /Could not reach the Gateway/, 'the failure kept for the log');
  });

  test('a question cancelled while listing rejects rather than offering anything', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(pickerOffer(portsFor(away, 'demo-key'), controller.signal));
  });

  test('an id the Gateway itself listed as the placeholder is never offered as a model', async () => {
    const offer = await pickerOffer(
      {
        hasKey: async () => true,
        list: async () => [
          { id: 'gw-chat', ownedBy: 'gateway' },
          { id: PLACEHOLDER_MODEL_ID, ownedBy: 'gateway' },
        ],
        offeredWhileAway: () => [],
      },
      signal(),
    );
    assert.deepEqual(offer.kind === 'models' && ids(offer.models), ['gw-chat']);
  });

  test("another extension's request to it is refused with what to do", () => {
    assert.match(placeholderRefusal('no-key'), /not a model.*"Gateway: Set API Key"/);
    const refusal = placeholderRefusal('not-listed', 'Could not reach the Gateway at http://127.0.0.1:9/v1 (connection refused).');
    assert.match(refusal, /not a model.*\(Could not reach the Gateway at .*\)\. Check the "gateway\.baseUrl" setting/);
  });
});

describe('@gateway asked with the placeholder selected', () => {
  const chatCompletions = () => emulator.requests.filter((r) => r.path === '/v1/chat/completions');
  const portsFor = (baseUrl: string, key: string | undefined, configured = '') => {
    const asked: boolean[] = [];
    const ports: ChatModelPorts = {
      configured: () => configured,
      list: (listSignal, fresh) => {
        asked.push(fresh);
        return makeClient(baseUrl, key).listModels({ signal: listSignal });
      },
    };
    return { ports, asked };
  };

  test('no key: the real "no key" failure (Set API Key), no request with the placeholder', async () => {
    emulator.reset();
    await assert.rejects(chatRequestModel(PLACEHOLDER_MODEL_ID, portsFor(emulator.baseUrl, undefined, 'gw-chat').ports, signal()), (error: unknown) => {
      assert.ok(error instanceof MissingApiKeyError);
      assert.match(error.message, /"Gateway: Set API Key"/);
      return true;
    });
    assert.deepEqual(emulator.requests, []);
  });

  test('a Gateway that does not answer: its real failure (Open Settings in the chat), even with a chat model configured', async () => {
    const { ports, asked } = portsFor(away, 'demo-key', 'gw-chat');
    await assert.rejects(chatRequestModel(PLACEHOLDER_MODEL_ID, ports, signal()), ConnectionError);
    assert.deepEqual(asked, [true], 'listed afresh: a Retry after a fix is not answered by the last failure');
  });

  test('a Gateway that lists: the configured model, else the default, is what the question goes to', async () => {
    emulator.reset();
    assert.equal(await chatRequestModel(PLACEHOLDER_MODEL_ID, portsFor(emulator.baseUrl, 'demo-key', 'gw-chat-pro').ports, signal()), 'gw-chat-pro');
    const model = await chatRequestModel(PLACEHOLDER_MODEL_ID, portsFor(emulator.baseUrl, 'demo-key').ports, signal());
    assert.equal(model, 'gw-chat');
    const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
    const events = await collect(endpoints.stream({ model, messages: [{ role: 'user', content: 'hello' }] }, { signal: signal() }));
    assert.ok(events.some((e) => e.type === 'text'));
    assert.deepEqual(
      chatCompletions().map((r) => (r.body as { model: string }).model),
      ['gw-chat'],
      'the emulator never saw the placeholder',
    );
  });

  test('a real pick is sent as picked, without a listing; no pick takes the configured model', async () => {
    const picked = portsFor(away, 'demo-key', 'gw-chat');
    assert.equal(await chatRequestModel('gw-chat-mini', picked.ports, signal()), 'gw-chat-mini');
    assert.equal(await chatRequestModel(undefined, picked.ports, signal()), 'gw-chat');
    assert.deepEqual(picked.asked, []);
  });
});
