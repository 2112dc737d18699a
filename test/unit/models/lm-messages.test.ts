// VS Code's language-model request messages → chat-completions messages (src/chat/common/languageModelMessages.ts),
// with stand-ins shaped like VS Code's extHostTypes classes, and a round trip through the emulator.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/gateway/common';
import { ModelEndpoints } from '../../../src/models/common/modelEndpoints';
import { dataText, estimateTokens, toChatMessages, type RequestMessageLike } from '../../../src/models/common/languageModelMessages';
import { startEmulator, type Emulator } from '../../emulator/server';
import { collect, makeClient } from '../helpers/clients';

// Shaped as in VS Code 1.104's extHostTypes; ToolResultPart2 does not extend ToolResultPart there.
class TextPart {
  constructor(readonly value: string) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
    readonly isError = false,
  ) {}
}
class ToolResultPart2 {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
    readonly isError = false,
  ) {}
}
class DataPart {
  constructor(
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
}
class PromptTsxPart {
  constructor(readonly value: unknown) {}
}

const USER = 1;
const ASSISTANT = 2;
const SYSTEM = 3;
const message = (role: number, ...content: unknown[]): RequestMessageLike => ({ role, content });

/** A history VS Code's agent mode sends: system prompt, task, the model's tool call, the tool's result. */
function agentHistory(ResultClass: typeof ToolResultPart | typeof ToolResultPart2, callId = 'call_1'): RequestMessageLike[] {
  return [
    message(SYSTEM, new TextPart('You are an agent.')),
    message(USER, new TextPart('read a.ts')),
    message(ASSISTANT, new ToolCallPart(callId, 'read_file', { path: 'a.ts' })),
    message(USER, new ResultClass(callId, [new TextPart('export const a = 1;')])),
  ];
}

void describe('VS Code request messages as chat messages', () => {
  for (const ResultClass of [ToolResultPart, ToolResultPart2]) {
    void it(`keeps a ${ResultClass.name} as a tool message after its call, and role 3 as system`, () => {
      assert.deepEqual(toChatMessages(agentHistory(ResultClass)), [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'read a.ts' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;' },
      ]);
    });
  }

  void it('puts tool results before the text of the same message, and joins text parts', () => {
    const out = toChatMessages([message(USER, new TextPart('now '), new ToolResultPart2('c1', [new TextPart('ok')]), new TextPart('go on'))]);
    assert.deepEqual(out, [
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'user', content: 'now go on' },
    ]);
  });

  void it('keeps assistant text alongside tool calls, and drops empty messages', () => {
    const out = toChatMessages([
      message(ASSISTANT, new TextPart('Reading. '), new ToolCallPart('c1', 'read_file', {})),
      message(USER),
      message(ASSISTANT, 42, null),
    ]);
    assert.deepEqual(out, [
      { role: 'assistant', content: 'Reading. ', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
    ]);
  });

  void it('replaces an image in a tool result by a short note, and counts tokens on that', () => {
    const image = new DataPart(new Uint8Array(50_000).fill(200), 'image/png');
    const history = [message(USER, new ToolResultPart2('c1', [new TextPart('Screenshot: '), image]))];
    const out = toChatMessages(history);
    assert.deepEqual(out, [{ role: 'tool', tool_call_id: 'c1', content: 'Screenshot: [image/png, 50000 bytes omitted]' }]);
    assert.equal(estimateTokens(out), Math.ceil('Screenshot: [image/png, 50000 bytes omitted]'.length / 4));
  });

  void it('decodes small textual data parts; notes large ones; skips non-media markers', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    assert.equal(dataText('application/json', bytes('{"a":1}')), '{"a":1}');
    assert.equal(dataText('text/plain; charset=utf-8', bytes('héllo')), 'héllo');
    assert.equal(dataText('application/vnd.api+json', bytes('[]')), '[]');
    assert.equal(dataText('text/plain', new Uint8Array(20_000).fill(65)), '[text/plain, 20000 bytes omitted]');
    assert.equal(dataText('application/octet-stream', bytes('xyz')), '[application/octet-stream, 3 bytes omitted]');
    assert.equal(dataText('cache_control', bytes('ephemeral')), '');
    const out = toChatMessages([message(USER, new TextPart('hi'), new DataPart(bytes('ephemeral'), 'cache_control'))]);
    assert.deepEqual(out, [{ role: 'user', content: 'hi' }]);
  });

  void it('passes a prompt-tsx piece as JSON and never serialises bytes', () => {
    const out = toChatMessages([message(USER, new ToolResultPart2('c1', [new PromptTsxPart({ node: 'text' }), { data: [1, 2] }]))]);
    assert.deepEqual(out, [{ role: 'tool', tool_call_id: 'c1', content: '{"node":"text"}[unsupported content omitted]' }]);
  });

  void it('estimates tokens over content and tool-call arguments', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'abcd' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'ab', arguments: '{}' } }] },
    ];
    assert.equal(estimateTokens(messages), 2);
  });
});

void describe('converted agent history against the emulator', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  const tools = [{ name: 'read_file', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

  void it('accepts a tool call followed by its LanguageModelToolResultPart2 result', async () => {
    const endpoints = new ModelEndpoints(makeClient(emu.baseUrl, 'demo-key'));
    emu.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' }, callId: 'call_7' }] }, { text: 'done' }]);
    const first = await collect(
      endpoints.stream(
        { model: 'gw-chat', messages: toChatMessages(agentHistory(ToolResultPart2).slice(0, 2)), tools },
        { signal: new AbortController().signal },
      ),
    );
    const call = first.find((event) => event.type === 'tool_call');
    assert.ok(call?.type === 'tool_call');
    const second = await collect(
      endpoints.stream(
        { model: 'gw-chat', messages: toChatMessages(agentHistory(ToolResultPart2, call.call.callId)), tools },
        { signal: new AbortController().signal },
      ),
    );
    assert.equal(second.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join(''), 'done');
    const sent = emu.requests.at(-1)?.body as { messages: ChatMessage[] };
    assert.deepEqual(
      sent.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool'],
    );
  });

  void it('rejects the same history without the tool result (what dropping it caused)', async () => {
    const endpoints = new ModelEndpoints(makeClient(emu.baseUrl, 'demo-key'));
    const history = toChatMessages(agentHistory(ToolResultPart2).slice(0, 3));
    await assert.rejects(
      collect(endpoints.stream({ model: 'gw-chat', messages: history, tools }, { signal: new AbortController().signal })),
      /Missing: call_1/,
    );
  });
});
