// Helpers for the emulator's own tests: HTTP calls, SSE parsing (with eventsource-parser) and a small JSON Schema checker.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Emulator } from './types';

export interface CallOptions {
  key?: string | null;
  headers?: Record<string, string>;
  raw?: string;
  signal?: AbortSignal;
}

export function call(emu: Emulator, method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? 'demo-key' : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined || opts.raw !== undefined) headers['content-type'] = 'application/json';
  return fetch(emu.baseUrl.replace(/\/v1$/, '') + path, {
    method,
    headers,
    body: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    signal: opts.signal,
  });
}

export const post = (emu: Emulator, path: string, body: unknown, opts?: CallOptions): Promise<Response> => call(emu, 'POST', path, body, opts);

export async function json(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}

export interface Sse {
  raw: string;
  events: EventSourceMessage[];
}

export function parseSse(raw: string): Sse {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(raw);
  return { raw, events };
}

export async function readSse(res: Response): Promise<Sse> {
  return parseSse(await res.text());
}

/** Reads a stream until `stop` says so, then aborts; returns what arrived. */
export async function readUntil(res: Response, stop: (text: string) => boolean, abort: AbortController): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (stop(text)) {
      abort.abort();
      await reader.cancel().catch(() => undefined);
      return text;
    }
  }
}

export const chatBody = (content: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model: 'gw-chat',
  messages: [{ role: 'user', content }],
  ...extra,
});

/** Resolves after `turns` rounds of the event loop, each with its I/O: what a local server was about to send has arrived by then. */
export async function eventLoopTurns(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

type Schema = Record<string, any>;

/** Errors of `value` against `schema` (the subset tool declarations use); [] when it satisfies it. */
export function schemaErrors(value: unknown, schema: Schema, root: Schema = schema, path = '$'): string[] {
  if (schema.$ref) {
    const target = (schema.$ref as string)
      .slice(2)
      .split('/')
      .reduce((n: any, p) => n?.[p], root);
    return schemaErrors(value, target ?? {}, root, path);
  }
  const errs: string[] = [];
  const fail = (m: string): void => void errs.push(`${path}: ${m}`);
  if ('const' in schema && JSON.stringify(value) !== JSON.stringify(schema.const)) fail('const');
  if (schema.enum && !schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) fail('enum');
  if (schema.allOf) for (const s of schema.allOf) errs.push(...schemaErrors(value, s, root, path));
  if (schema.anyOf && !schema.anyOf.some((s: Schema) => schemaErrors(value, s, root, path).length === 0)) fail('anyOf');
  if (schema.oneOf && schema.oneOf.filter((s: Schema) => schemaErrors(value, s, root, path).length === 0).length !== 1) fail('oneOf');
  const types: string[] | undefined = schema.type === undefined ? undefined : [].concat(schema.type);
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
  if (types && !types.some((t) => t === actual || (t === 'number' && actual === 'integer'))) return [...errs, `${path}: type ${actual} not ${types}`];
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail('minimum');
    if (schema.maximum !== undefined && value > schema.maximum) fail('maximum');
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) fail('exclusiveMinimum');
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) fail('exclusiveMaximum');
    if (schema.multipleOf !== undefined && Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9) fail('multipleOf');
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) fail('minLength');
    if (schema.maxLength !== undefined && value.length > schema.maxLength) fail('maxLength');
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) fail('format date-time');
    if (schema.format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) fail('format email');
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail('minItems');
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail('maxItems');
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) fail('uniqueItems');
    value.forEach((v, i) => {
      const sub = schema.prefixItems?.[i] ?? schema.items;
      if (sub) errs.push(...schemaErrors(v, sub, root, `${path}[${i}]`));
    });
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!(r in obj)) fail(`missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties?.[k];
      if (sub) errs.push(...schemaErrors(v, sub, root, `${path}.${k}`));
      else if (schema.additionalProperties === false) fail(`additional ${k}`);
    }
  }
  return errs;
}
