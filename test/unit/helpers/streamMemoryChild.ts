/**
 * The child process of test/unit/gateway/stream-memory.test.ts, so that what it measures is this process's memory alone:
 *
 * - `call <baseUrl> <models|chat|responses>`: one call of the real GatewayClient, over the extension's node:http adapter
 *   (VirtualClock.fetch), against the test's server; prints how far the resident memory rose at its peak, from
 *   /proc/self/status's VmHWM (the high-water mark of this process's own memory: `process.resourceUsage().maxRSS` of a
 *   child starts from its parent's, inherited across fork and exec), and the error the call ended with.
 * - `pieces <chatArguments|responsesArguments|shownText> <count>` (with --expose-gc): feeds a decoder (or the key
 *   guard) `count` one-character pieces and prints the heap they leave held, per piece, while it is still alive.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ChatStreamDecoder } from '../../../src/gateway/common/chatStreamDecoder';
import { SecretRedactor } from '../../../src/gateway/common/redaction';
import { ResponsesStreamDecoder } from '../../../src/gateway/common/responsesStreamDecoder';
import type { StreamEvent } from '../../../src/gateway/common';
import { makeClient } from './clients';

const KEY = 'gw_memory_child_0123456789abcdef';

function highWaterMark(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!match) throw new Error('no VmHWM in /proc/self/status');
  return Number(match[1]) * 1024;
}

async function call(baseUrl: string, kind: string): Promise<void> {
  const client = makeClient(baseUrl, KEY);
  const options = { signal: new AbortController().signal };
  // The mark set to what is resident now (Linux 4.0 on); without it, the mark is what starting up reached.
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // An older kernel: the mark stays where starting up left it, which only makes the figure larger.
  }
  const start = process.memoryUsage().rss;
  let error: { name: string; kind?: string; message: string } | undefined;
  try {
    if (kind === 'models') await client.listModels(options);
    else {
      const stream =
        kind === 'chat'
          ? client.chatStream({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }, options)
          : client.respondStream({ model: 'gw-code', input: 'hi' }, options);
      // Events are let go as they come, as the chat does once it has shown them.
      for await (const event of stream) void event;
    }
  } catch (caught) {
    const failure = caught as Error & { kind?: string };
    error = { name: failure.constructor.name, kind: failure.kind, message: failure.message };
  }
  process.stdout.write(`${JSON.stringify({ peakGrowth: highWaterMark() - start, error })}\n`);
}

function pieces(kind: string, count: number): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const out: StreamEvent[] = [];
  const context = { siteUrl: 'http://127.0.0.1', redact: [] };
  let feed: () => void;
  let holder: unknown;
  if (kind === 'chatArguments') {
    const decoder = new ChatStreamDecoder(context);
    const data = JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'a' } }] } }] });
    decoder.decode({ data: JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f' } }] } }] }) }, out);
    feed = () => decoder.decode({ data }, out);
    holder = decoder;
  } else if (kind === 'responsesArguments') {
    const decoder = new ResponsesStreamDecoder(context);
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' };
    decoder.decode({ data: JSON.stringify({ type: 'response.output_item.added', output_index: 0, item }) }, out);
    const data = JSON.stringify({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: 'a' });
    feed = () => decoder.decode({ data }, out);
    holder = decoder;
  } else if (kind === 'shownText') {
    const guard = new SecretRedactor([KEY]).guardDecoded()!;
    const read: StreamEvent[] = [{ type: 'text', text: 'a' }];
    feed = () => guard.screen(read, out);
    holder = guard;
  } else throw new Error(`unknown kind ${kind}`);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) {
    feed();
    out.length = 0;
  }
  gc();
  const held = process.memoryUsage().heapUsed - before;
  process.stdout.write(`${JSON.stringify({ bytesPerPiece: held / count, alive: holder !== undefined })}\n`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'call') void call(args[0], args[1]).then(() => process.exit(0));
else if (mode === 'pieces') pieces(args[0], Number(args[1]));
else throw new Error(`unknown mode ${mode}`);
