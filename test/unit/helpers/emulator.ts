// Shared checks for the emulator's unit tests (test/unit/emulator-*.test.ts): error shape, rate-limit headers, stream reading.
import assert from 'node:assert/strict';
import { json, parseSse } from '../../emulator/test-helpers';

export const RATE_HEADERS = [
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
];
export const DURATION = /^(\d+h)?(\d+m)?\d+s$|^\d+ms$/;

/** Asserts the OpenAI-style error envelope (exactly error.{code,message,param,type}) and returns the error. */
export async function expectError(res: Response, status: number, type: string, code: string, param: string | null): Promise<any> {
  const body = await json(res);
  assert.equal(res.status, status, JSON.stringify(body));
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(body.error.type, type);
  assert.equal(body.error.code, code);
  assert.equal(body.error.param, param);
  assert.ok(body.error.message.length > 0);
  return body.error;
}

/** Byte-level check of a responses stream: `event: <type>` then `data: <json>` blocks, type matches, sequence_number from 0. */
export function responseEvents(raw: string): any[] {
  assert.ok(raw.endsWith('\n\n'));
  assert.ok(!raw.includes('[DONE]'));
  const blocks = raw.slice(0, -2).split('\n\n');
  const payloads = blocks.map((b) => {
    const m = /^event: ([^\n]+)\ndata: ([^\n]+)$/.exec(b);
    assert.ok(m, `bad block: ${b.slice(0, 100)}`);
    const payload = JSON.parse(m[2]);
    assert.equal(payload.type, m[1]);
    return payload;
  });
  const { events } = parseSse(raw);
  assert.deepEqual(
    events.map((e) => e.event),
    payloads.map((p) => p.type),
  );
  payloads.forEach((p, i) => assert.equal(p.sequence_number, i));
  return payloads;
}

/** Reads a body chunk by chunk; returns the text received and whether the stream failed (socket destroyed). */
export async function readAll(res: Response, onText: (text: string) => void = () => undefined): Promise<{ text: string; failed: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
      onText(text);
    }
  } catch {
    return { text, failed: true };
  }
}

/** The text deltas of a chat or responses stream, in order (lines that are not JSON are skipped). */
export const contentDeltas = (raw: string): string[] =>
  parseSse(raw).events.flatMap((e) => {
    try {
      const d = JSON.parse(e.data);
      return d.choices?.[0]?.delta?.content ? [d.choices[0].delta.content] : d.type === 'response.output_text.delta' ? [d.delta] : [];
    } catch {
      return [];
    }
  });
