// HTTP control API for out-of-process users (never used by a client in normal use); not recorded in the request log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DIALECTS, type Dialect, type Emulator, type KeyConfig, type ScriptedTurn } from './types';
import { checkFault } from './faults';

function send(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

function parse(raw: string): Record<string, unknown> {
  const v: unknown = raw ? JSON.parse(raw) : {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('body must be a JSON object');
  return v as Record<string, unknown>;
}

function keyOf(body: Record<string, unknown>): string {
  if (typeof body.key !== 'string' || !body.key) throw new Error('"key" must be a non-empty string');
  return body.key;
}

/**
 * POST /_emulator/script {key, turns}, POST /_emulator/fault {key, fault}, POST /_emulator/keys {KeyConfig},
 * POST /_emulator/dialect {model, dialect|null}, GET /_emulator/requests, GET /_emulator/balance?key=..., POST /_emulator/forget-responses,
 * POST /_emulator/reset.
 */
export function handleControl(emu: Emulator, req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void {
  const route = `${req.method} ${url.pathname}`;
  try {
    switch (route) {
      case 'POST /_emulator/script': {
        const body = parse(raw);
        if (!Array.isArray(body.turns)) throw new Error('"turns" must be an array');
        emu.script(keyOf(body), body.turns as ScriptedTurn[]);
        return send(res, 200, { ok: true });
      }
      case 'POST /_emulator/fault': {
        const body = parse(raw);
        emu.fault(keyOf(body), checkFault(body.fault));
        return send(res, 200, { ok: true });
      }
      case 'POST /_emulator/keys': {
        const body = parse(raw);
        keyOf(body);
        emu.addKey(body as unknown as KeyConfig);
        return send(res, 200, { ok: true });
      }
      case 'GET /_emulator/requests':
        return send(res, 200, emu.requests);
      case 'GET /_emulator/balance': {
        const key = url.searchParams.get('key') ?? '';
        return send(res, 200, { key, balance: emu.balance(key) });
      }
      case 'POST /_emulator/dialect': {
        const body = parse(raw);
        if (typeof body.model !== 'string' || !body.model) throw new Error('"model" must be a non-empty string');
        if (body.dialect !== null && !DIALECTS.includes(body.dialect as Dialect)) throw new Error(`"dialect" must be null or one of ${DIALECTS.join(', ')}`);
        emu.setDialect(body.model, body.dialect as Dialect | null);
        return send(res, 200, { ok: true });
      }
      case 'POST /_emulator/forget-responses':
        emu.forgetResponses();
        return send(res, 200, { ok: true });
      case 'POST /_emulator/reset':
        emu.reset();
        return send(res, 200, { ok: true });
      default:
        return send(res, 404, { error: `unknown control route ${route}` });
    }
  } catch (err) {
    send(res, 400, { error: err instanceof Error ? err.message : String(err) });
  }
}
