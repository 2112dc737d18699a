// Every recording in test/conformance (copied from real traffic, see its README) parses to the right events, whatever the byte chunking and line endings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BalanceError, StreamInterruptedError, type StreamEvent } from '../../src/gateway/common';
import { collect, makeClient, signal } from '../unit/helpers/clients';
import { frameJsonl, seededRandom, startRecordingServer, type RecordingServer } from '../unit/helpers/recordingServer';

const conformance = join(__dirname, '..', 'conformance');
const recording = (name: string) => readFileSync(join(conformance, name), 'utf8');

/** Whole body; one byte at a time; and 30 random chunkings from fixed seeds. */
const chunkings: { name: string; sizes: () => () => number }[] = [
  { name: 'whole', sizes: () => () => 1 << 30 },
  { name: 'bytewise', sizes: () => () => 1 },
  ...Array.from({ length: 30 }, (_, seed) => ({
    name: `random seed ${seed}`,
    sizes: () => {
      const random = seededRandom(seed);
      return () => 1 + Math.floor(random() * 97);
    },
  })),
];

/**
 * Each recording as recorded (LF), and with bare CR line endings, which SSE also
 * allows: the parser holds a final CR back in case LF follows, so the client
 * must flush it when the body ends or the terminal event is lost.
 */
const lineEndings: { name: string; convert: (bytes: Buffer) => Buffer }[] = [
  { name: 'LF', convert: (bytes) => bytes },
  { name: 'CR', convert: (bytes) => Buffer.from(bytes.toString('utf8').replace(/\r\n|\n/g, '\r'), 'utf8') },
];

/** Every line ending crossed with every chunking. */
const variants = lineEndings.flatMap((ending) =>
  chunkings.map((chunking) => ({ name: `${ending.name}, ${chunking.name}`, convert: ending.convert, sizes: chunking.sizes })),
);

let server: RecordingServer;
before(async () => {
  server = await startRecordingServer();
});
after(() => server.close());

const chatParams = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'weather?' }] };
const respondParams = { model: 'gw-code', input: 'weather?' };

describe('chat-tool-call.sse', () => {
  const bytes = Buffer.from(recording('chat-tool-call.sse'), 'utf8');
  for (const variant of variants) {
    test(`parses (${variant.name})`, async () => {
      server.serve(variant.convert(bytes), variant.sizes());
      const events = await collect(makeClient(server.baseUrl, 'k').chatStream(chatParams, { signal: signal() }));
      assert.deepEqual(events, [
        { type: 'response', id: 'chatcmpl-ABfw8AOXnoa2kzy11vVTSjuQhHCQr', model: 'gpt-4o-2024-08-06' },
        {
          type: 'tool_call',
          call: {
            callId: 'call_c91SqDXlYFuETYv8mUHzz6pp',
            name: 'GetWeatherArgs',
            arguments: '{"city":"Edinburgh","country":"UK","units":"c"}',
          },
        },
        { type: 'usage', usage: { inputTokens: 76, outputTokens: 24, reasoningTokens: 0, totalTokens: 100 } },
        { type: 'done', finishReason: 'tool_calls' },
      ] satisfies StreamEvent[]);
    });
  }
});

describe('responses-text.jsonl', () => {
  const bytes = frameJsonl(recording('responses-text.jsonl'));
  for (const variant of variants) {
    test(`parses (${variant.name})`, async () => {
      server.serve(variant.convert(bytes), variant.sizes());
      const events = await collect(makeClient(server.baseUrl, 'k').respondStream(respondParams, { signal: signal() }));
      assert.deepEqual(events, [
        { type: 'response', id: 'resp_sanitized_streaming', model: 'gpt-4o-mini-2024-07-18' },
        { type: 'text', text: 'OK' },
        { type: 'usage', usage: { inputTokens: 12, outputTokens: 2, reasoningTokens: 0, totalTokens: 14 } },
        { type: 'done', finishReason: 'stop' },
      ] satisfies StreamEvent[]);
    });
  }
});

describe('responses-tool-call.jsonl', () => {
  const bytes = frameJsonl(recording('responses-tool-call.jsonl'));
  for (const variant of variants) {
    test(`parses (${variant.name})`, async () => {
      server.serve(variant.convert(bytes), variant.sizes());
      const events = await collect(makeClient(server.baseUrl, 'k').respondStream(respondParams, { signal: signal() }));
      assert.deepEqual(events.slice(1), [
        { type: 'tool_call', call: { callId: 'call_2FQdm3Br7Qb35YUBSkDR7kue', name: 'get_weather', arguments: '{"city":"Beijing"}' } },
        { type: 'usage', usage: { inputTokens: 45, outputTokens: 25, reasoningTokens: 0, totalTokens: 70 } },
        { type: 'done', finishReason: 'tool_calls' },
      ] satisfies StreamEvent[]);
      assert.equal(events[0].type, 'response');
    });
  }
});

describe('responses-error.jsonl', () => {
  const bytes = frameJsonl(recording('responses-error.jsonl'));
  for (const variant of variants) {
    test(`becomes a typed error (${variant.name})`, async () => {
      server.serve(variant.convert(bytes), variant.sizes());
      const seen: StreamEvent[] = [];
      const client = makeClient(server.baseUrl, 'k');
      await assert.rejects(
        async () => {
          for await (const event of client.respondStream(respondParams, { signal: signal() })) seen.push(event);
        },
        (error: unknown) => {
          assert.ok(error instanceof BalanceError, `expected BalanceError, got ${String(error)}`);
          assert.equal(error.billingUrl, 'https://gateway.example/cabinet/billing');
          assert.match(error.message, /Top up at https:\/\/gateway\.example\/cabinet\/billing/);
          return true;
        },
      );
      assert.deepEqual(
        seen.map((event) => event.type),
        ['response'],
      );
      // The stream's 200 said nothing of the balance; its error event did.
      assert.equal(client.limits.snapshot().balance, 'depleted');
    });
  }

  test('the same error in a chat stream also leaves the balance depleted', async () => {
    const error = { type: 'insufficient_quota', code: 'balance_zero', message: 'Your balance is empty.', param: null };
    server.serve(Buffer.from(`data: ${JSON.stringify({ error })}\n\n`), () => 1 << 30);
    const client = makeClient(server.baseUrl, 'k');
    await assert.rejects(collect(client.chatStream(chatParams, { signal: signal() })), BalanceError);
    assert.equal(client.limits.snapshot().balance, 'depleted');
  });
});

describe('truncated recordings', () => {
  test('a responses stream cut before its terminal event is an error that keeps the partial text', async () => {
    const lines = recording('responses-text.jsonl').trim().split('\n');
    server.serve(frameJsonl(lines.slice(0, 6).join('\n')), () => 50);
    const texts: string[] = [];
    await assert.rejects(
      async () => {
        for await (const event of makeClient(server.baseUrl, 'k').respondStream(respondParams, { signal: signal() })) {
          if (event.type === 'text') texts.push(event.text);
        }
      },
      (error: unknown) => error instanceof StreamInterruptedError && error.partialText === 'OK',
    );
    assert.deepEqual(texts, ['OK']);
  });

  // Ending after the finish reason without [DONE] is a dialect (issue 24): the answer is whole. Before it, it is not.
  test('a chat stream cut before its finish reason is an error, never a silent success', async () => {
    const text = recording('chat-tool-call.sse');
    server.serve(Buffer.from(text.slice(0, text.lastIndexOf('data: ', text.indexOf('"finish_reason":"tool_calls"')))), () => 64);
    await assert.rejects(collect(makeClient(server.baseUrl, 'k').chatStream(chatParams, { signal: signal() })), StreamInterruptedError);
  });

  test('unknown events and fields are ignored', async () => {
    const extra = [
      '{"type":"response.created","sequence_number":0,"response":{"id":"resp_x","novel":{"a":1}}}',
      '{"type":"response.brand_new_event","sequence_number":1,"whatever":[1,2,3]}',
      '{"type":"response.output_text.delta","sequence_number":2,"delta":"Hi","shiny":true}',
      '{"type":"response.completed","sequence_number":3,"response":{"id":"resp_x","status":"completed","usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2,"reasoning_tokens":5}}}',
    ].join('\n');
    server.serve(frameJsonl(extra), () => 7);
    const events = await collect(makeClient(server.baseUrl, 'k').respondStream(respondParams, { signal: signal() }));
    assert.deepEqual(events, [
      { type: 'response', id: 'resp_x', model: undefined },
      { type: 'text', text: 'Hi' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, reasoningTokens: 5, totalTokens: 2 } },
      { type: 'done', finishReason: 'stop' },
    ] satisfies StreamEvent[]);
  });
});
