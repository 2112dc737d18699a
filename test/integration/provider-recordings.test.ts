// Streams recorded from real providers (test/conformance/providers, sources in its SOURCES.md), replayed over real HTTP
// under several chunkings: the extension's client decodes each as a second real client, the Vercel AI SDK, decodes
// the same bytes (text, reasoning, function calls with their arguments, input/output tokens).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { seededRandom, startRecordingServer, type RecordingServer } from '../unit/helpers/recordingServer';
import { decodeWithAiSdk, decodeWithGateway, listRecordings, recordedChatUsage, recordedResponsesContent, type Decoded } from './providerRecordings';

const providers = join(__dirname, '..', 'conformance', 'providers');
const recordings = listRecordings(providers);

/**
 * The cuts, as piece sizes in order. Cutting a whole recording into pieces of a few bytes costs ~0.1 ms of CPU
 * a piece a client (3.2 MB of recordings), so the tiny pieces cover the beginning and the end, where the stream's
 * framing starts and its terminal events are; 24 random cuts spread over the whole file cut the rest, lines and
 * multi-byte characters included. Seeded by the file's position, so a failure replays the same cuts.
 */
type Chunking = (length: number, seed: number) => number[];

const whole: Chunking = (length) => [length];

const randomCuts: Chunking = (length, seed) => {
  const random = seededRandom(seed);
  const cuts = [...new Set(Array.from({ length: 24 }, () => 1 + Math.floor(random() * (length - 1))))].sort((a, b) => a - b);
  return [...cuts, length].map((cut, i) => cut - (i === 0 ? 0 : cuts[i - 1]));
};

const TINY_HEAD = 64;
const TINY_TAIL = 320;

const tinyEnds: Chunking = (length, seed) => {
  const random = seededRandom(seed);
  const sizes: number[] = [];
  let offset = 0;
  while (offset < length) {
    const inside = offset < TINY_HEAD || offset >= length - TINY_TAIL;
    const size = inside ? 1 + Math.floor(random() * 4) : length - TINY_TAIL - offset;
    sizes.push(size);
    offset += size;
  }
  return sizes;
};

const chunkings: { name: string; sizes: Chunking }[] = [
  { name: 'whole', sizes: whole },
  { name: '1-4 byte pieces at both ends', sizes: tinyEnds },
  { name: '24 random cuts', sizes: randomCuts },
];

/** Hands the server the sizes one by one. */
function pieces(sizes: number[]): () => number {
  let next = 0;
  return () => sizes[next++] ?? 1 << 30;
}

/**
 * Where the AI SDK (ai 7, @ai-sdk/openai 4, @ai-sdk/openai-compatible 3) is wrong or lacks a feature, what the
 * recording itself says it answered stands in for it (its finished output items and final usage), for the
 * fields named; each is listed with its reason in providers/SOURCES.md.
 */
const noReasoningText = { why: '@ai-sdk/openai does not read response.reasoning_text.delta', fields: ['reasoning'] as (keyof Decoded)[] };
const sdkExceptions: Record<string, { why: string; fields: (keyof Decoded)[] | 'all' }> = {
  'deepseek/responses-function-tool-stream-1.sse': noReasoningText,
  'deepseek/responses-text-stream.sse': noReasoningText,
  'lmstudio/responses-tool-call.sse': noReasoningText,
  'lmstudio/responses-tool-call-2.sse': noReasoningText,
  'openrouter/responses-raw-cot-stream-openrouter.sse': noReasoningText,
  'openai/responses-apply-patch.sse': { why: 'the SDK makes its own apply_patch tool a call; no function was called', fields: ['toolCalls'] },
  'openai/responses-local-shell.sse': { why: 'the SDK makes its own local_shell tool a call; no function was called', fields: ['toolCalls'] },
  'xai/responses-web-search.sse': { why: 'the SDK rejects a url_citation annotation without title', fields: 'all' },
  'groq/chat-web-search-tool-stream.sse': { why: '@ai-sdk/openai-compatible does not read usage under x_groq', fields: ['usage'] },
};

/** vercel/ai kept only a few of this recording's text deltas (its finished message holds the whole text). */
const deltasCut = new Set(['openai/responses-phase.sse']);

let server: RecordingServer;
before(async () => {
  server = await startRecordingServer();
});
after(() => server.close());

test('the recordings are there: at least 10 providers and 40 streams, both endpoints', () => {
  assert.ok(new Set(recordings.map((recording) => recording.provider)).size >= 10);
  assert.ok(recordings.length >= 40);
  assert.ok(recordings.some((recording) => recording.endpoint === 'responses'));
  assert.ok(recordings.some((recording) => recording.endpoint === 'chat'));
});

recordings.forEach((recording, index) => {
  describe(recording.name, () => {
    const bytes = readFileSync(recording.path);
    const exception = sdkExceptions[recording.name];

    /**
     * What the Gateway's client must decode: the AI SDK's reading of the same bytes, or the
     * recording's own word for the fields where the SDK is wrong.
     */
    let sdk: Decoded | undefined;
    let want: Decoded;
    before(async () => {
      if (exception?.fields === 'all') {
        want = recordedResponsesContent(bytes);
        return;
      }
      server.serve(bytes, pieces(whole(bytes.length, index)));
      sdk = await decodeWithAiSdk(server.baseUrl, recording.endpoint);
      if (!exception) {
        want = sdk;
        return;
      }
      const recorded = recording.endpoint === 'chat' ? { ...sdk, usage: recordedChatUsage(bytes) } : recordedResponsesContent(bytes);
      want = { ...sdk, ...Object.fromEntries(exception.fields.map((field) => [field, recorded[field]])) };
    });

    const yardstick = exception ? `as the recording says (${exception.why})` : 'as the AI SDK does';
    for (const chunking of chunkings) {
      test(`decodes ${yardstick} (${chunking.name})`, async () => {
        server.serve(bytes, pieces(chunking.sizes(bytes.length, index)));
        assert.deepEqual(await decodeWithGateway(server.baseUrl, recording.endpoint), want);
      });
    }

    // The stand-in for the SDK above is only as good as this: wherever the SDK reads a responses recording, the two agree.
    if (recording.endpoint === 'responses' && !exception && !deltasCut.has(recording.name)) {
      test('its finished output items and final usage say what the AI SDK decoded', () => {
        assert.deepEqual(recordedResponsesContent(bytes), sdk);
      });
    }
  });
});
