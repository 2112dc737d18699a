// The key must not come out of a stream's DECODED text either: a server can JSON-escape it
// (`\u0067w_…`, which holds no raw form of the key) or split it over two deltas (never
// contiguous on the wire). Both pass the raw-bytes check; these tests send them over real HTTP.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { GatewayError, type StreamEvent } from '../../../src/gateway/common';
import { collect, makeClient, signal } from '../helpers/clients';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

const KEY = 'gw_LiveToken0123456789abcdef';
/** The key with its first character JSON-escaped: what a server may send inside a string. */
const ESCAPED = `\\u0067${KEY.slice(1)}`;

let server: HostileServer;
before(async () => (server = await startHostileServer()));
after(() => server.close());

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
const respond = { model: 'gw-code', input: 'hello' };

/** One chat chunk; `content` is spliced in raw, so it may hold JSON escapes. */
function chatDelta(content: string, extra = ''): string {
  return `data: {"id":"c","object":"chat.completion.chunk","model":"gw-chat","choices":[{"index":0,"delta":{"content":"${content}"${extra}}}]}\n\n`;
}
const chatDone = 'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

/** One responses event; `fields` is spliced in raw. */
function responsesEvent(type: string, fields: string): string {
  return `event: ${type}\ndata: {"type":"${type}",${fields}}\n\n`;
}
const responsesDone = responsesEvent('response.completed', '"response":{"id":"resp_1","status":"completed"}');

function textOf(events: StreamEvent[], type: 'text' | 'reasoning' = 'text'): string {
  return events.map((e) => (e.type === type ? e.text : '')).join('');
}

function assertNoKey(where: string, text: string, forms = [KEY]): void {
  for (const form of forms) assert.ok(!text.toLowerCase().includes(form.toLowerCase()), `${where} leaked ${form}: ${text}`);
}

function answer(chunks: string[]): void {
  server.on('/v1/chat/completions', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(chunks.join(''));
  });
}

/**
 * Sends each chunk in a network read of its own: the next only once the client
 * yielded the previous one's events. Each chunk carries a reasoning marker, so
 * every read yields an event even when all its answer text is held back.
 */
async function stepped(chunks: string[], onText: (sofar: string) => void): Promise<StreamEvent[]> {
  let res: ServerResponse | undefined;
  let next = 0;
  const send = () => {
    const chunk = chunks[next++];
    if (chunk === undefined) return;
    if (next === chunks.length) res?.end(chunk);
    else res?.write(chunk);
  };
  server.on('/v1/chat/completions', (_req, response) => {
    res = response;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    send();
  });
  const events: StreamEvent[] = [];
  for await (const event of makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() })) {
    events.push(event);
    if (event.type === 'text') onText(textOf(events));
    if (event.type === 'reasoning') send();
  }
  return events;
}
const marked = (content: string) => chatDelta(content, ',"reasoning_content":"."');

describe('the key in decoded stream text', () => {
  test('a JSON-escaped key in a chat delta', async () => {
    answer([chatDelta(`key ${ESCAPED}.`), chatDelta(`and \\u0047${KEY.slice(1).toUpperCase()}`), chatDone]);
    const events = await collect(makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() }));
    assert.equal(textOf(events), 'key ***.and ***');
  });

  test('a key split over two chat deltas in one read', async () => {
    answer([chatDelta('clean ').repeat(20), chatDelta('key gw_LiveTo'), chatDelta('ken0123456789abcdef, bye'), chatDone]);
    const events = await collect(makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() }));
    assert.equal(textOf(events), `${'clean '.repeat(20)}key ***, bye`);
  });

  test('a key in one-character deltas, each in a read of its own, never shows whole nor short of its last character', async () => {
    const said = `the key is ${KEY}.`;
    const shown: string[] = [];
    const events = await stepped([...[...said].map((c) => marked(c)), chatDone], (sofar) => shown.push(sofar));
    assert.equal(textOf(events), 'the key is ***.');
    for (const sofar of shown) assertNoKey('the text shown so far', sofar, [KEY, KEY.slice(0, -1)]);
    // Ordinary text is not held: the words before the key were shown before the key began.
    assert.ok(shown.includes('the key is '), shown.join('|'));
  });

  test('a key at the very end of the stream', async () => {
    answer([chatDelta('the key is gw_Live'), chatDelta(KEY.slice(7)), chatDone]);
    const events = await collect(makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() }));
    assert.equal(textOf(events), 'the key is ***');
    assert.equal(events.at(-1)?.type, 'done');
  });

  test('a held-back start of the key is released at the end, before done', async () => {
    const shown: string[] = [];
    const events = await stepped([marked('see gw_Live'), chatDone], (sofar) => shown.push(sofar));
    assert.deepEqual(shown, ['see ', 'see gw_Live']);
    assert.deepEqual(
      events.map((e) => e.type),
      ['response', 'text', 'reasoning', 'text', 'done'],
    );
  });

  test('a near miss is released unchanged as soon as it stops looking like the key', async () => {
    const said = 'gw_LiveTokenX and GW_LIVE';
    const shown: string[] = [];
    const events = await stepped([...[...said].map((c) => marked(c)), chatDone], (sofar) => shown.push(sofar));
    assert.equal(textOf(events), said);
    assert.ok(shown.includes('gw_LiveTokenX'), shown.join('|'));
  });

  test('chat tool-call arguments: escaped, split over fragments', async () => {
    const call = (index: number, args: string, head = '') =>
      `data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":${index}${head},"function":{"arguments":"${args}"}}]}}]}\n\n`;
    answer([
      call(0, '{\\"k\\":\\"gw_Live', ',"id":"call_1"'),
      call(0, 'Token0123456789abcdef\\"}'),
      call(1, `{\\"k\\":\\"${ESCAPED}\\"}`, ',"id":"call_2"'),
      'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
    ]);
    const events = await collect(makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() }));
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call.arguments] : []));
    assert.deepEqual(calls, ['{"k":"***"}', '{"k":"***"}']);
  });

  test('responses: answer, reasoning summary and function-call arguments', async () => {
    server.on('/v1/responses', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        responsesEvent('response.created', '"response":{"id":"resp_1","model":"gw-code"}') +
          responsesEvent('response.reasoning_summary_text.delta', '"delta":"thinking of gw_LiveTok"') +
          responsesEvent('response.reasoning_summary_text.delta', '"delta":"en0123456789abcdef now"') +
          responsesEvent('response.output_text.delta', `"delta":"it is ${ESCAPED}"`) +
          responsesEvent('response.output_text.delta', '"delta":" and gw_"') +
          responsesEvent('response.output_text.delta', `"delta":"${KEY.slice(3)}!"`) +
          responsesEvent('response.output_item.added', '"output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f"}') +
          responsesEvent('response.function_call_arguments.delta', '"item_id":"fc_1","delta":"{\\"k\\":\\"gw_Li"') +
          responsesEvent('response.function_call_arguments.delta', '"item_id":"fc_1","delta":"veToken0123456789abcdef\\"}"') +
          responsesEvent(
            'response.output_item.done',
            `"output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{\\"k\\":\\"${ESCAPED}\\"}"}`,
          ) +
          responsesDone,
      );
    });
    const events = await collect(makeClient(server.baseUrl, KEY).respondStream(respond, { signal: signal() }));
    assert.equal(textOf(events), 'it is *** and ***!');
    assert.equal(textOf(events, 'reasoning'), 'thinking of *** now');
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call.arguments] : []));
    assert.deepEqual(calls, ['{"k":"***"}']);
  });

  test('the partial text of a stream cut after a split key matches what was shown', async () => {
    answer([chatDelta('key gw_LiveTo'), chatDelta('ken0123456789abcdef and gw_Li')]);
    const shown: string[] = [];
    let error: unknown;
    try {
      for await (const event of makeClient(server.baseUrl, KEY).chatStream(chat, { signal: signal() })) if (event.type === 'text') shown.push(event.text);
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof GatewayError, String(error));
    assert.equal(shown.join(''), 'key *** and ');
    // The held-back tail is released with the end of the stream: into the partial text.
    assert.equal(error.partialText, 'key *** and gw_Li');
  });
});

describe('the key in a decoded JSON answer', () => {
  test('a JSON-escaped key in a non-streamed chat answer and its tool-call arguments', async () => {
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `{"id":"c","object":"chat.completion","model":"gw-chat","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",` +
          `"content":"key ${ESCAPED}","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\\"k\\":\\"${ESCAPED}\\"}"}}]}}]}`,
      );
    });
    const result = await makeClient(server.baseUrl, KEY).chat(chat, { signal: signal() });
    assert.equal(result.text, 'key ***');
    assert.deepEqual(
      result.toolCalls.map((call) => call.arguments),
      ['{"k":"***"}'],
    );
  });
});
