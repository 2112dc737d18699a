// The gateway emulator: an HTTP server speaking the gateway's wire protocol (see README.md).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { handleChat } from './chat';
import { handleControl } from './control';
import { HttpError, contextLengthExceeded, balanceZero, modelNotFound, notFound, overloaded, rateLimited, serverError, unauthorized, invalid } from './errors';
import { estimatePrompt } from './estimate';
import { FaultQueues, faultFromHeader, type FaultEndpoint } from './faults';
import { type GenContext, deliverJson, errorPayload } from './generation';
import { requestId } from './ids';
import { KeyStore, MODEL_CREATED, type KeyState } from './keys';
import { RateLimiter, type WindowEntry } from './ratelimit';
import { ResponseStore, handleResponses } from './responses';
import { ScriptQueues } from './scripted-model';
import {
  CHAT_MODELS,
  DEFAULT_CONTEXT_WINDOWS,
  type Dialect,
  type Emulator,
  type EmulatorClock,
  type EmulatorOptions,
  type Fault,
  type RecordedRequest,
} from './types';
import { isObj } from './validate-common';

const realClock: EmulatorClock = { now: () => Date.now(), sleep: (ms, signal) => delay(ms, undefined, { signal }) };

export type { Emulator, EmulatorOptions, KeyConfig, ScriptedTurn, Fault, RecordedRequest } from './types';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function recordedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = name === 'authorization' ? 'Bearer ***' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function bearer(header: string | undefined): string | null {
  const m = header ? /^Bearer (\S+)$/.exec(header.trim()) : null;
  return m ? m[1] : null;
}

const ROUTES: Record<string, FaultEndpoint> = {
  'GET /v1/models': 'models',
  'POST /v1/chat/completions': 'chat',
  'POST /v1/responses': 'responses',
};

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const keys = new KeyStore({ rpm: options.rpm ?? 60, tpm: options.tpm ?? 200000, rateLimitHeaders: options.rateLimitHeaders ?? true }, options.keys ?? []);
  const clock: EmulatorClock = options.clock ?? (options.now ? { ...realClock, now: options.now } : realClock);
  const now = () => clock.now();
  const limiter = new RateLimiter(options.windowMs ?? 60000, now);
  const scripts = new ScriptQueues();
  const faults = new FaultQueues();
  const store = new ResponseStore();
  const requests: RecordedRequest[] = [];
  const connectionIds = new WeakMap<object, number>();
  let connectionCount = 0;
  const sockets = new Set<Socket>();
  let siteUrl = options.siteUrl ?? '';
  const contextWindows: Record<string, number> = { ...DEFAULT_CONTEXT_WINDOWS, ...options.contextWindows };
  const dialects = new Map<string, Dialect>(Object.entries(options.dialects ?? {}));

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string, raw: string): Promise<void> {
    let parsed: unknown = null;
    let jsonOk = true;
    if (raw.length > 0) {
      try {
        parsed = JSON.parse(raw);
      } catch {
        jsonOk = false;
        parsed = raw;
      }
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      key: bearer(req.headers.authorization),
      headers: recordedHeaders(req),
      body: parsed,
      status: 0,
      time: now(),
      connection: connectionIds.get(req.socket) ?? 0,
    };
    requests.push(record);
    let key: KeyState | undefined;
    let entry: WindowEntry | undefined;
    const headers = (): Record<string, string> => (key && key.rateLimitHeaders ? limiter.headers(key, now()) : {});
    const sendJson = (status: number, payload: unknown, extra: Record<string, string> = {}): void => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers(), ...extra });
      res.end(JSON.stringify(payload));
    };
    try {
      if (!path.startsWith('/v1/')) throw notFound(path);
      key = record.key === null ? undefined : keys.get(record.key);
      if (!key) throw unauthorized();
      const k = key;
      const endpoint = ROUTES[`${req.method} ${path.replace(/\/+$/, '')}`];
      if (!endpoint) throw notFound(path);
      if (k.balance <= 0) throw balanceZero(siteUrl);
      const prevId = isObj(parsed) && typeof parsed.previous_response_id === 'string' ? parsed.previous_response_id : undefined;
      const previous = prevId ? (store.get(prevId, k.key)?.conversation ?? []) : [];
      const admission = limiter.admit(k, endpoint === 'models' ? 0 : estimatePrompt(parsed, previous), now());
      if (!admission.ok) throw rateLimited(admission.retryAfterSec, admission.what);
      entry = admission.entry;
      const takeFault = (ep: FaultEndpoint): Fault | undefined => {
        const fault = faultFromHeader(req.headers['x-emulator-fault']) ?? faults.take(k.key, ep);
        if (!fault) return undefined;
        record.fault = fault.kind;
        if (fault.kind === '500') throw serverError();
        if (fault.kind === '503') throw overloaded(fault.retryAfter);
        if (fault.kind === '429') {
          limiter.forget(k, admission.entry);
          throw rateLimited(fault.retryAfter ?? 1, 'requests (injected)');
        }
        return fault;
      };
      const ctx: GenContext = {
        key: k,
        body: {},
        res,
        record,
        scripts,
        tokenDelayMs: options.tokenDelayMs ?? 0,
        clock,
        headers,
        sendJson,
        takeFault,
        dialectOf: (model) => dialects.get(model),
        checkModel(model, ep) {
          if (!k.models.includes(model)) throw modelNotFound(model);
          if (ep === 'chat' && !CHAT_MODELS.includes(model)) {
            throw modelNotFound(model, `The model '${model}' is not served on this endpoint; use /v1/responses.`);
          }
        },
        checkWindow(model, promptTokens, param) {
          const window = contextWindows[model];
          if (window !== undefined && promptTokens > window) throw contextLengthExceeded(window, promptTokens, param);
        },
        succeed(total, input) {
          record.inputTokens = input;
          record.totalTokens = total;
          admission.entry.tokens = total;
          keys.charge(k.key, total);
        },
      };
      if (endpoint === 'models') {
        const data = k.models.map((id) => ({ id, object: 'model', created: MODEL_CREATED[id] ?? 1735689600, owned_by: 'gateway' }));
        if (await deliverJson(ctx, { object: 'list', data }, takeFault('models'))) entry.tokens = 0;
        return;
      }
      if (!jsonOk) throw invalid('invalid_json', null, 'We could not parse the JSON body of your request.');
      if (!isObj(parsed)) throw invalid('invalid_json', null, 'The request body must be a JSON object.');
      ctx.body = parsed;
      const succeeded = ctx.succeed;
      let ok = false;
      ctx.succeed = (total, input) => {
        ok = true;
        succeeded(total, input);
      };
      try {
        await (endpoint === 'chat' ? handleChat(ctx) : handleResponses(ctx, store));
      } finally {
        if (!ok) entry.tokens = 0;
      }
    } catch (err) {
      if (entry) entry.tokens = 0;
      if (res.headersSent || res.destroyed) return;
      const e = err instanceof HttpError ? err : serverError();
      if (!(err instanceof HttpError)) console.error('[emulator] internal error:', err);
      record.errorCode = e.body.code;
      sendJson(e.status, errorPayload(e.body), e.headers);
    }
  }

  const server = createServer((req, res) => {
    res.setHeader('x-request-id', requestId());
    const url = new URL(req.url ?? '/', 'http://emulator');
    readBody(req)
      .then(async (raw) => {
        if (url.pathname.startsWith('/_emulator/')) return handleControl(emulator, req, res, url, raw);
        if (req.method === 'GET' && url.pathname.startsWith('/cabinet')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end(`<!doctype html><title>Gateway emulator</title><h1>Account area (emulated): ${url.pathname}</h1>`);
        }
        await handleApi(req, res, url.pathname, raw);
      })
      .catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    connectionIds.set(socket, ++connectionCount);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  siteUrl = options.siteUrl ?? `http://${urlHost}:${port}`;

  const emulator: Emulator = {
    baseUrl: `http://${urlHost}:${port}/v1`,
    siteUrl,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      }),
    addKey: (cfg) => void keys.add(cfg),
    script: (key, turns) => scripts.add(key, turns),
    fault: (key, fault) => faults.add(key, fault),
    forgetResponses: () => store.clear(),
    balance(key) {
      const state = keys.get(key);
      if (!state) throw new Error(`unknown key ${key}`);
      return state.balance;
    },
    reset() {
      scripts.clear();
      faults.clear();
      requests.length = 0;
      limiter.reset();
      keys.restoreBalances();
      dialects.clear();
      for (const [model, dialect] of Object.entries(options.dialects ?? {})) dialects.set(model, dialect);
    },
    setDialect(model, dialect) {
      if (dialect === null) dialects.delete(model);
      else dialects.set(model, dialect);
    },
  };
  return emulator;
}
