/**
 * Decodes one recorded provider stream with two real clients, the extension's GatewayClient and the
 * Vercel AI SDK's providers, both over real HTTP from the same local server, into one comparable shape.
 * Only what both clients expose is kept: the answer text, the reasoning, the function calls (name and
 * parsed arguments, in order) and the input/output token counts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { StreamEvent } from '../../src/gateway/common';
import { makeClient, signal } from '../unit/helpers/clients';

export type Endpoint = 'chat' | 'responses';

export interface Decoded {
  text: string;
  reasoning: string;
  toolCalls: { name: string; arguments: unknown }[];
  usage: { inputTokens: number | undefined; outputTokens: number | undefined } | undefined;
}

export interface Recording {
  /** `<provider>/<file>.sse`, as listed in providers/SOURCES.md. */
  name: string;
  provider: string;
  endpoint: Endpoint;
  path: string;
}

/** Every `*.sse` under test/conformance/providers/<provider>/; the file name says the endpoint (`chat-…` or `responses-…`). */
export function listRecordings(root: string): Recording[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      readdirSync(join(root, dir.name))
        .filter((file) => file.endsWith('.sse'))
        .sort()
        .map((file) => ({
          name: `${dir.name}/${file}`,
          provider: dir.name,
          endpoint: file.startsWith('responses-') ? ('responses' as const) : ('chat' as const),
          path: join(root, dir.name, file),
        })),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
}

const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'recorded question' }] }];

/** The extension's client through its public entry (chatStream / respondStream), fetch and all. */
export async function decodeWithGateway(baseUrl: string, endpoint: Endpoint): Promise<Decoded> {
  const client = makeClient(baseUrl, 'k');
  const stream =
    endpoint === 'chat'
      ? client.chatStream({ model: 'recorded', messages: [{ role: 'user', content: 'recorded question' }] }, { signal: signal() })
      : client.respondStream({ model: 'recorded', input: 'recorded question' }, { signal: signal() });
  const decoded: Decoded = { text: '', reasoning: '', toolCalls: [], usage: undefined };
  for await (const event of stream) addGatewayEvent(decoded, event);
  return decoded;
}

function addGatewayEvent(decoded: Decoded, event: StreamEvent): void {
  if (event.type === 'text') decoded.text += event.text;
  else if (event.type === 'reasoning') decoded.reasoning += event.text;
  else if (event.type === 'tool_call') decoded.toolCalls.push({ name: event.call.name, arguments: parseArguments(event.call.arguments) });
  else if (event.type === 'usage') decoded.usage = { inputTokens: event.usage.inputTokens, outputTokens: event.usage.outputTokens };
}

/** The fields of the AI SDK's stream parts (LanguageModelV4StreamPart) this comparison reads. */
interface SdkPart {
  type: string;
  delta?: string;
  toolName?: string;
  input?: string;
  providerExecuted?: boolean;
  usage?: { inputTokens: { total: number | undefined }; outputTokens: { total: number | undefined } };
  error?: unknown;
}

/**
 * The AI SDK's model for the endpoint: `@ai-sdk/openai-compatible` for chat completions (what it offers for
 * any OpenAI-compatible server, usage requested), `@ai-sdk/openai`'s responses model for the responses endpoint.
 */
export async function decodeWithAiSdk(baseUrl: string, endpoint: Endpoint): Promise<Decoded> {
  const model =
    endpoint === 'chat'
      ? createOpenAICompatible({ name: 'recorded', baseURL: baseUrl, apiKey: 'k', includeUsage: true }).chatModel('recorded')
      : createOpenAI({ baseURL: baseUrl, apiKey: 'k' }).responses('recorded');
  const { stream } = await model.doStream({ prompt, abortSignal: signal() });
  const decoded: Decoded = { text: '', reasoning: '', toolCalls: [], usage: undefined };
  const reader = (stream as ReadableStream<SdkPart>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return decoded;
    addSdkPart(decoded, value);
  }
}

function addSdkPart(decoded: Decoded, part: SdkPart): void {
  if (part.type === 'text-delta') decoded.text += part.delta ?? '';
  else if (part.type === 'reasoning-delta') decoded.reasoning += part.delta ?? '';
  // Tools the provider ran itself (web search, code interpreter…) are not calls the client must answer.
  else if (part.type === 'tool-call' && part.providerExecuted !== true)
    decoded.toolCalls.push({ name: part.toolName ?? '', arguments: parseArguments(part.input ?? '') });
  // A stream without usage leaves both totals undefined: the same as the Gateway's "no usage event".
  else if (part.type === 'finish' && part.usage && (part.usage.inputTokens.total !== undefined || part.usage.outputTokens.total !== undefined))
    decoded.usage = { inputTokens: part.usage.inputTokens.total, outputTokens: part.usage.outputTokens.total };
  else if (part.type === 'error') throw part.error instanceof Error ? part.error : new Error(JSON.stringify(part.error));
}

/** Arguments compared as values, so whitespace or key order in the JSON text does not count. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { unparsed: text };
  }
}

interface RecordedItem {
  type?: string;
  name?: string;
  arguments?: string;
  content?: { type?: string; text?: string }[];
  summary?: { type?: string; text?: string }[];
}

/**
 * What a responses recording says it answered, read from its own final events rather than decoded from its
 * deltas: the finished output items (`response.output_item.done`) and the usage of `response.completed`.
 * The yardstick where the AI SDK cannot be (see the exceptions in providers/SOURCES.md).
 */
export function recordedResponsesContent(bytes: Buffer): Decoded {
  const recorded: Decoded = { text: '', reasoning: '', toolCalls: [], usage: undefined };
  for (const line of bytes.toString('utf8').split('\n')) {
    // OpenRouter ends its responses streams with `data: [DONE]`, as chat streams end.
    if (!line.startsWith('data: {')) continue;
    const event = JSON.parse(line.slice('data: '.length)) as { type?: string; item?: RecordedItem; response?: { usage?: Record<string, number> } };
    if (event.type === 'response.output_item.done' && event.item) addRecordedItem(recorded, event.item);
    const usage = event.type === 'response.completed' ? event.response?.usage : undefined;
    if (usage) recorded.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  }
  return recorded;
}

function addRecordedItem(recorded: Decoded, item: RecordedItem): void {
  const texts = (parts: { type?: string; text?: string }[] | undefined, type: string) =>
    (parts ?? []).filter((part) => part.type === type).map((part) => part.text ?? '');
  if (item.type === 'message') recorded.text += texts(item.content, 'output_text').join('');
  if (item.type === 'reasoning') recorded.reasoning += [...texts(item.summary, 'summary_text'), ...texts(item.content, 'reasoning_text')].join('');
  if (item.type === 'function_call') recorded.toolCalls.push({ name: item.name ?? '', arguments: parseArguments(item.arguments ?? '') });
}

/**
 * A chat recording's own word for its usage: the last `usage` a chunk carries, at the top level or under Groq's
 * `x_groq` (which @ai-sdk/openai-compatible does not read).
 */
export function recordedChatUsage(bytes: Buffer): Decoded['usage'] {
  let usage: Decoded['usage'];
  for (const line of bytes.toString('utf8').split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice('data: '.length)) as { usage?: Record<string, number>; x_groq?: { usage?: Record<string, number> } };
    const found = chunk.usage ?? chunk.x_groq?.usage;
    if (found) usage = { inputTokens: found.prompt_tokens, outputTokens: found.completion_tokens };
  }
  return usage;
}
