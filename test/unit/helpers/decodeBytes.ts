/**
 * Decodes SSE bytes as the client does (the real reader and decoder over a real
 * ReadableStream body), cut at chosen places, and sums up what came out: the
 * unit tests of the dialects compare that summary, chunking by chunking.
 */
import { ChatStreamDecoder } from '../../../src/gateway/common/chatStreamDecoder';
import { ResponsesStreamDecoder } from '../../../src/gateway/common/responsesStreamDecoder';
import { readSse } from '../../../src/gateway/common/sseReader';
import type { StreamEvent, ToolCall, Usage } from '../../../src/gateway/common/types';
import { prng } from './prng';

export type Endpoint = 'chat' | 'responses';

export interface Decoded {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: Usage | undefined;
  finishReason: string | undefined;
  /** The note events' item types, in order. */
  notes: string[];
  /** Every event, in order. */
  events: StreamEvent[];
}

export interface Chunking {
  name: string;
  /** The sizes of the pieces, in bytes, called once per piece. */
  sizes: () => () => number;
}

/** Whole; one byte at a time (every UTF-8 and line boundary split); and random cuts from fixed seeds. */
export const CHUNKINGS: Chunking[] = [
  { name: 'whole', sizes: () => () => Number.MAX_SAFE_INTEGER },
  { name: 'byte by byte', sizes: () => () => 1 },
  ...[1].map((seed) => ({
    name: `random cuts, seed ${seed}`,
    sizes: () => {
      const random = prng(seed);
      return () => 1 + Math.floor(random() * 40);
    },
  })),
];

/** A body that yields `bytes` in pieces as `sizes` cuts them. */
export function bodyOf(bytes: Uint8Array, sizes: () => number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const end = Math.min(bytes.length, offset + Math.max(1, sizes()));
      controller.enqueue(bytes.slice(offset, end));
      offset = end;
    },
  });
}

export async function decodeBytes(endpoint: Endpoint, bytes: Uint8Array | string, sizes: () => number = () => Number.MAX_SAFE_INTEGER): Promise<Decoded> {
  const raw = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const context = { siteUrl: 'http://127.0.0.1', redact: [] };
  const decoder = endpoint === 'chat' ? new ChatStreamDecoder(context) : new ResponsesStreamDecoder(context);
  const events = readSse(async () => ({
    body: bodyOf(raw, sizes),
    decoder,
    onActivity: () => undefined,
    mapReadError: (error) => (error instanceof Error ? error : new Error(String(error))),
    onClose: () => undefined,
  }));
  const decoded: Decoded = { text: '', reasoning: '', toolCalls: [], usage: undefined, finishReason: undefined, notes: [], events: [] };
  for await (const event of events) {
    decoded.events.push(event);
    summarise(decoded, event);
  }
  return decoded;
}

function summarise(decoded: Decoded, event: StreamEvent): void {
  if (event.type === 'text') decoded.text += event.text;
  else if (event.type === 'reasoning') decoded.reasoning += event.text;
  else if (event.type === 'tool_call') decoded.toolCalls.push(event.call);
  else if (event.type === 'usage') decoded.usage = event.usage;
  else if (event.type === 'done') decoded.finishReason = event.finishReason;
  else if ((event as { type: string }).type === 'note') decoded.notes.push((event as unknown as { itemType: string }).itemType);
}

/** Chat chunks as a provider frames them: `data: <json>` and a blank line each, then `data: [DONE]`. */
export function chatSse(chunks: unknown[], ending = 'data: [DONE]\n\n'): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + ending;
}

/** Responses events as the interface frames them: `event: <type>`, `data: <json>`, a blank line. */
export function responsesSse(events: { type: string }[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** Decodes `bytes` under every chunking of CHUNKINGS and checks each result (the chunking's name is the assertion message). */
export async function underEveryChunking(endpoint: Endpoint, bytes: string, check: (decoded: Decoded, chunking: string) => void): Promise<void> {
  for (const chunking of CHUNKINGS) check(await decodeBytes(endpoint, bytes, chunking.sizes()), chunking.name);
}
