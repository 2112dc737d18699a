// A hostile server cannot fill the extension host's memory (bodies, gzip bombs, endless
// streams), and a stream of keep-alive comments alone does not keep a request alive.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ResponseTooLargeError, StreamTimeoutError, type StreamEvent } from '../../../src/gateway/common';
import { readSse, type StreamDecoder } from '../../../src/gateway/common/sseReader';
import { VirtualClock } from '../helpers/clock';
import { collect, makeClient, signal } from '../helpers/clients';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

let server: HostileServer;
before(async () => (server = await startHostileServer()));
after(() => server.close());

const chat = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
const respond = { model: 'gw-code', input: 'hello' };

/** Polls a condition on real I/O (a server's writes), bounded: at most 2,000 turns of 1 ms. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let polls = 0; !condition() && polls < 2_000; polls++) await new Promise((resolve) => setTimeout(resolve, 1));
}
const MB = 1024 * 1024;

/** Writes `total` bytes of `fill` in 64 KB pieces, waiting for the socket to drain (so the server itself stays small). */
function writeLazily(res: ServerResponse, total: number, piece: Buffer, onWritten?: (bytes: number) => void): void {
  let sent = 0;
  const next = () => {
    while (sent < total) {
      sent += piece.length;
      onWritten?.(sent);
      if (!res.write(piece)) {
        res.once('drain', next);
        return;
      }
    }
    res.end();
  };
  res.on('error', () => undefined);
  next();
}

/** Runs `run` and reports how much the heap and buffers grew at the peak. */
async function peakGrowth(run: () => Promise<void>): Promise<number> {
  global.gc?.();
  const base = process.memoryUsage();
  let peak = 0;
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
  }, 5);
  try {
    await run();
  } finally {
    clearInterval(sample);
  }
  return peak;
}

async function tooLarge(run: () => Promise<unknown>): Promise<ResponseTooLargeError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ResponseTooLargeError, `expected ResponseTooLargeError, got ${String(error)}`);
    return error;
  }
  assert.fail('the answer was read whole');
}

describe('body ceilings', () => {
  test('a 300 MB /models body stops at the model-list ceiling with a clear error, memory bounded', async () => {
    server.on('/v1/models', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      writeLazily(res, 300 * MB, Buffer.alloc(64 * 1024, ' '));
    });
    let error: ResponseTooLargeError | undefined;
    const growth = await peakGrowth(async () => {
      error = await tooLarge(() => makeClient(server.baseUrl, 'k').listModels({ signal: signal() }));
    });
    assert.match(error!.message, /model list passed 4 MB/);
    assert.ok(growth < 64 * MB, `memory grew by ${Math.round(growth / MB)} MB`);
  });

  test('a gzip bomb (a few hundred KB that inflate to 300 MB) stops at the ceiling of the decoded size', async () => {
    // 300 gzip members of 1 MB of spaces each (a gzip file may hold several; a decoder inflates them all): the same bomb
    // as one 300 MB member, without compressing 300 MB in the test (0.6 s of CPU).
    const member = gzipSync(Buffer.alloc(MB, ' '), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 300 }, () => member));
    assert.ok(bomb.length < 400 * 1024, `bomb is ${bomb.length} bytes`);
    server.on('/v1/models', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    let error: ResponseTooLargeError | undefined;
    const growth = await peakGrowth(async () => {
      error = await tooLarge(() => makeClient(server.baseUrl, 'k').listModels({ signal: signal() }));
    });
    assert.equal(error!.limit, 4 * MB);
    assert.ok(growth < 64 * MB, `memory grew by ${Math.round(growth / MB)} MB`);
  });

  test('a huge error body is cut at 64 KB and still maps to the status', async () => {
    server.on('/v1/models', (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      writeLazily(res, 50 * MB, Buffer.alloc(64 * 1024, 'x'));
    });
    await assert.rejects(makeClient(server.baseUrl, 'k').listModels({ signal: signal() }), (error: Error) => /rejected the request/.test(error.message));
  });

  test('an endless stream of text stops at the answer ceiling, the text so far kept', async () => {
    const delta = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta: { content: 'a'.repeat(1000) } }] })}\n\n`;
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeLazily(res, Number.MAX_SAFE_INTEGER, Buffer.from(delta.repeat(64)));
    });
    const client = makeClient(server.baseUrl, 'k', { bodyLimits: { answerChars: 2 * MB } });
    const error = await tooLarge(() => collect(client.chatStream(chat, { signal: signal() })));
    assert.match(error.message, /answer text passed 2 MB/);
    assert.ok(error.partialText.length > 2 * MB && error.partialText.length < 3 * MB, `${error.partialText.length} chars kept`);
  });

  test('an endless stream of reasoning stops at the same ceiling', async () => {
    const delta = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta: { reasoning_content: 'r'.repeat(1000) } }] })}\n\n`;
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeLazily(res, Number.MAX_SAFE_INTEGER, Buffer.from(delta.repeat(64)));
    });
    const client = makeClient(server.baseUrl, 'k', { bodyLimits: { answerChars: 2 * MB } });
    const error = await tooLarge(() => collect(client.chatStream(chat, { signal: signal() })));
    assert.match(error.message, /reasoning text passed 2 MB/);
  });

  test('one endless stream line stops at the event ceiling (8 MB by default), memory bounded, the download stopped', async () => {
    let written = 0;
    server.on('/v1/responses', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"');
      // 300 MB: past the whole stream's 256 MB ceiling, which alone let one line take ~410 MiB.
      writeLazily(res, 300 * MB, Buffer.alloc(64 * 1024, 'x'), (bytes) => (written = bytes));
    });
    let error: ResponseTooLargeError | undefined;
    const growth = await peakGrowth(async () => {
      error = await tooLarge(() => collect(makeClient(server.baseUrl, 'k').respondStream(respond, { signal: signal() })));
    });
    assert.ok(growth < 64 * MB, `memory grew by ${Math.round(growth / MB)} MB`);
    assert.equal(error!.limit, 8 * MB);
    assert.match(error!.message, /One event of the Gateway's stream passed 8 MB \(8,388,608 characters\)/);
    assert.match(error!.message, /"gateway\.baseUrl"/);
    // The server was stopped near the bound (plus what the sockets buffer), not read on to the stream's ceiling.
    await waitFor(() => written > 0);
    assert.ok(written < 40 * MB, `the server wrote ${Math.round(written / MB)} MB`);
  });

  test('data lines of one event that never end it stop at the event ceiling; events before it arrive', async () => {
    const before = `data: ${JSON.stringify({ type: 'response.output_text.delta', delta: 'kept' })}\n\n`;
    server.on('/v1/responses', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(before);
      writeLazily(res, 100 * MB, Buffer.from(`data: ${'y'.repeat(1000)}\n`.repeat(64)));
    });
    const client = makeClient(server.baseUrl, 'k', { bodyLimits: { eventChars: MB } });
    const seen: StreamEvent[] = [];
    const error = await tooLarge(async () => {
      for await (const event of client.respondStream(respond, { signal: signal() })) seen.push(event);
    });
    assert.equal(error.limit, MB);
    assert.match(error.message, /One event of the Gateway's stream passed 1 MB/);
    assert.deepEqual(seen, [{ type: 'text', text: 'kept' }]);
    assert.equal(error.partialText, 'kept');
  });

  test("a large real event (a tool call's 3 MB of arguments, then the whole response again) is read whole", async () => {
    const args = JSON.stringify({ path: 'big.txt', content: 'z'.repeat(3 * MB) });
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'write_file', arguments: args, status: 'completed' };
    const usage = { input_tokens: 10, output_tokens: 800_000, total_tokens: 800_010 };
    const frames = [
      { type: 'response.created', response: { id: 'resp_1', model: 'gw-code', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: args },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { id: 'resp_1', model: 'gw-code', status: 'completed', output: [item], usage } },
    ];
    server.on('/v1/responses', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frames.map((frame) => `event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`).join(''));
    });
    const events = await collect(makeClient(server.baseUrl, 'k').respondStream(respond, { signal: signal() }));
    const call = events.find((event) => event.type === 'tool_call');
    assert.equal(call?.type === 'tool_call' && call.call.arguments, args);
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'tool_calls' });
  });

  test('an endless stream of keep-alive comments stops at the stream ceiling', async () => {
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeLazily(res, Number.MAX_SAFE_INTEGER, Buffer.from(': keep-alive\n\n'.repeat(4096)));
    });
    const client = makeClient(server.baseUrl, 'k', { bodyLimits: { streamBytes: 8 * MB } });
    const error = await tooLarge(() => collect(client.chatStream(chat, { signal: signal() })));
    assert.match(error.message, /stream passed 8 MB/);
  });
});

describe('the data lines of one event', () => {
  /** Reads `chunks` (one read each) under a ceiling of `maxEventLines`; each event becomes a text event of its data. */
  async function read(chunks: string[], maxEventLines: number): Promise<StreamEvent[]> {
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      },
      { highWaterMark: 0 },
    );
    const decoder: StreamDecoder = {
      finished: false,
      decode(message, out: StreamEvent[]) {
        if (message.data === '[DONE]') (this as { finished: boolean }).finished = true;
        else out.push({ type: 'text', text: message.data });
      },
    };
    return collect(
      readSse(async () => ({ body, decoder, maxEventLines, onActivity: () => undefined, mapReadError: (e) => e as Error, onClose: () => undefined })),
    );
  }
  const characters = (text: string) => [...text];
  const lines = (text: string) => text.split(/(?<=\n)/);

  // The count takes a line as it starts; a parser that has not seen an event's end yet (a CR it holds until the next character) may
  // have the next event's first line counted with it, so the event a line under the ceiling is the one always read.
  test('an event of a line more than the ceiling stops the stream, one a line under it is read; however the reads split the lines', async () => {
    for (const [ending, split] of [
      ['\n', characters],
      ['\r', characters],
      ['\r\n', characters],
      ['\n', lines],
    ] as const) {
      const event = (count: number) => `${'data: x'.concat(ending).repeat(count)}${ending}data: [DONE]${ending}${ending}`;
      const label = `${JSON.stringify(ending)} in reads of ${split === characters ? 'one character' : 'one line'}`;
      assert.deepEqual(await read(split(event(3)), 4), [{ type: 'text', text: 'x\nx\nx' }], label);
      const error = await tooLarge(() => read(split(event(5)), 4));
      assert.match(error.message, /One event of the Gateway's stream passed 4 data lines/, label);
      assert.equal(error.limit, 4, label);
    }
  });

  test('comments, other fields and the lines of events already ended do not count', async () => {
    const chunks = [
      ...Array.from({ length: 10 }, () => ': keep-alive\n'),
      ...Array.from({ length: 10 }, (_, i) => `event: e${i}\n`),
      'id: 1\n',
      ...Array.from({ length: 10 }, () => ['data: a\n', 'data: b\n', '\n']).flat(),
      'data: [DONE]\n\n',
    ];
    const events = await read(chunks, 2);
    assert.equal(events.length, 10);
    assert.deepEqual(events[0], { type: 'text', text: 'a\nb' });
  });
});

describe('keep-alive comments do not count as activity', () => {
  /** A decoder that turns every data event into a text event. */
  function decoder(): StreamDecoder & { finished: boolean } {
    return {
      finished: false,
      decode(message, out: StreamEvent[]) {
        if (message.data === '[DONE]') this.finished = true;
        else out.push({ type: 'text', text: message.data });
      },
    };
  }

  test('only chunks that complete an event touch the watchdog', async () => {
    const chunks = [': ping\n\n', ': ping\n', '\n', 'data: he', 'llo\n\n', ': ping\n\n', 'data: [DONE]\n\n'];
    const touchedAfter: string[] = [];
    let current = '';
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else {
            current = next;
            controller.enqueue(new TextEncoder().encode(next));
          }
        },
      },
      { highWaterMark: 0 },
    );
    const events = await collect(
      readSse(async () => ({
        body,
        decoder: decoder(),
        onActivity: () => void touchedAfter.push(current),
        mapReadError: (e) => e as Error,
        onClose: () => undefined,
      })),
    );
    assert.deepEqual(events, [{ type: 'text', text: 'hello' }]);
    assert.deepEqual(touchedAfter, ['llo\n\n', 'data: [DONE]\n\n']);
  });

  test('a server that sends only comments times out', async () => {
    let comments = 0;
    server.on('/v1/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => {
        res.write(': keep-alive\n\n');
        comments++;
      }, 5);
      res.on('close', () => clearInterval(timer));
    });
    // Virtual time: the watchdog's 200 ms pass when the test says so, after real comments have arrived
    // (that comments do not reset it is shown on the reader above).
    const clock = new VirtualClock();
    const client = makeClient(server.baseUrl, 'k', { clock, idleTimeoutMs: 200 });
    const outcome = assert.rejects(collect(client.chatStream(chat, { signal: signal() })), StreamTimeoutError);
    // Polls for the server's own writes (real I/O), bounded; the client's time is the virtual clock's.
    for (let polls = 0; comments < 3 && polls < 2_000; polls++) await new Promise((resolve) => setTimeout(resolve, 1));
    assert.ok(comments >= 3, 'the server sent keep-alive comments');
    clock.advance(200);
    await outcome;
  });
});
