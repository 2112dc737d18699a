// Compression bombs and hostile streams against the extension's client, its memory measured honestly: a server in this
// process answers a child process (helpers/streamMemoryChild.ts) that runs one call of the real GatewayClient over the
// node:http adapter, and the child reports how far its own resident memory rose at the peak. Every encoding the adapter
// decodes (gzip, x-gzip, deflate, br), sent whole or in many small writes, for the model list, an error body and both
// streams. The stream cases failed before the reader counted an event's data lines: 8 M characters sent as lines of
// one character each (the event ceiling counts characters) held 300 MB (Node 20) to 360 MB (Node 24), one string node
// a line, whatever the encoding (plain text too). A second child, with --expose-gc, checks what tool-call arguments
// and the key guard's text hold per one-character piece (32 bytes before: one string node each).
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

const MB = 1024 * 1024;
/** Above what any case needs once bounded (13-32 MB measured, 16 MB of it brotli's window), far below a rope of lines. */
const PEAK_BOUND = 48 * MB;
const run = promisify(execFile);
/** VmHWM and clear_refs are Linux's. */
const skip = existsSync('/proc/self/status') ? false : 'the peak is read from /proc/self/status (Linux)';

let folder: string;
let childScript: string;
let server: HostileServer;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'gw-stream-memory-'));
  childScript = join(folder, 'streamMemoryChild.js');
  // Compiled once, its libraries with it (the folder is outside the project's node_modules): a child started through tsx
  // would spend its time, and its memory, compiling.
  await build({
    entryPoints: ['test/unit/helpers/streamMemoryChild.ts'],
    outfile: childScript,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  server = await startHostileServer();
});
after(async () => {
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

type Encoding = 'gzip' | 'x-gzip' | 'deflate' | 'br';

/** `text` repeated to `megabytes` MB, compressed: gzip as that many members of 1 MB, deflate and br as one stream. */
function bomb(encoding: Encoding, text: string, megabytes: number): Buffer {
  const piece = Buffer.from(text.repeat(Math.ceil(MB / text.length))).subarray(0, MB);
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    const member = gzipSync(piece);
    return Buffer.concat(Array.from({ length: megabytes }, () => member));
  }
  const whole = Buffer.concat(Array.from({ length: megabytes }, () => piece));
  if (encoding === 'deflate') return deflateSync(whole, { level: 1 });
  // Quality 1 compresses 64 MB in tens of ms; the 16 MB window is what a hostile server would ask for.
  return brotliCompressSync(whole, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 24 } });
}

/** The body whole (one write, Content-Length) or chunked in 1 KB writes, each waiting for the socket. */
function answer(res: ServerResponse, status: number, encoding: Encoding, body: Buffer, writes: 'whole' | 'small'): void {
  res.on('error', () => undefined);
  const type = status === 200 ? 'text/event-stream' : 'application/json';
  if (writes === 'whole') {
    res.writeHead(status, { 'Content-Type': type, 'Content-Encoding': encoding, 'Content-Length': String(body.length) }).end(body);
    return;
  }
  res.writeHead(status, { 'Content-Type': type, 'Content-Encoding': encoding });
  let offset = 0;
  const next = () => {
    while (offset < body.length && !res.destroyed) {
      const piece = body.subarray(offset, (offset += 1024));
      if (!res.write(piece)) return void res.once('drain', next);
    }
    res.end();
  };
  next();
}

interface CallReport {
  peakGrowth: number;
  error?: { name: string; kind?: string; message: string };
}

async function childCall(kind: 'models' | 'chat' | 'responses'): Promise<CallReport> {
  const { stdout } = await run(process.execPath, [childScript, 'call', server.baseUrl, kind], { timeout: 60_000 });
  return JSON.parse(stdout) as CallReport;
}

const paths = { models: '/v1/models', chat: '/v1/chat/completions', responses: '/v1/responses' };

interface Case {
  what: string;
  kind: 'models' | 'chat' | 'responses';
  status: number;
  encoding: Encoding;
  text: string;
  writes: 'whole' | 'small';
  error: RegExp;
}

const cases: Case[] = [
  // The finding: lines of one character, each one a string node the parser held, 280-360 MB before.
  { what: 'data lines of nothing (LF)', kind: 'chat', status: 200, encoding: 'gzip', text: 'data:\n', writes: 'whole', error: /passed 65,536 data lines/ },
  {
    what: 'data lines of one character (CRLF)',
    kind: 'responses',
    status: 200,
    encoding: 'br',
    text: 'data: x\r\n',
    writes: 'small',
    error: /passed 65,536 data lines/,
  },
  { what: 'data lines of nothing (CR)', kind: 'chat', status: 200, encoding: 'deflate', text: 'data:\r', writes: 'whole', error: /passed 65,536 data lines/ },
  { what: 'bare data fields (LF)', kind: 'responses', status: 200, encoding: 'x-gzip', text: 'data\n', writes: 'small', error: /passed 65,536 data lines/ },
  // Bounded before too: kept so that they stay so.
  { what: 'one endless line', kind: 'chat', status: 200, encoding: 'gzip', text: 'x', writes: 'whole', error: /One event of the Gateway's stream passed 8 MB/ },
  { what: 'the model list', kind: 'models', status: 200, encoding: 'gzip', text: '\0', writes: 'whole', error: /model list passed 4 MB/ },
  { what: 'the model list', kind: 'models', status: 200, encoding: 'br', text: '\0', writes: 'small', error: /model list passed 4 MB/ },
  { what: 'an error body', kind: 'chat', status: 400, encoding: 'deflate', text: '\0', writes: 'small', error: /rejected the request/ },
  { what: 'an error body', kind: 'models', status: 400, encoding: 'br', text: '\0', writes: 'whole', error: /rejected the request/ },
];

describe('compression bombs: the peak memory of the process that reads them', { skip }, () => {
  for (const c of cases) {
    test(`${c.kind}, ${c.status}, ${c.encoding} (${c.writes === 'whole' ? 'one write' : '1 KB writes'}): ${c.what} in 64 MB, stopped by its ceiling, peak < 48 MB`, async () => {
      const body = bomb(c.encoding, c.text, 64);
      server.on(paths[c.kind], (_req, res) => answer(res, c.status, c.encoding, body, c.writes));
      const report = await childCall(c.kind);
      assert.ok(report.peakGrowth < PEAK_BOUND, `the peak rose by ${Math.round(report.peakGrowth / MB)} MB`);
      assert.ok(report.error, 'the call succeeded');
      assert.match(report.error.message, c.error);
      if (c.status === 200) assert.equal(report.error.kind, 'too_large');
    });
  }
});

describe('text in pieces: what one-character pieces leave held', () => {
  // A rope of one string node (32 bytes) a piece before; the pieces held in joined batches now, about a byte a character.
  for (const kind of ['chatArguments', 'responsesArguments', 'shownText']) {
    test(`${kind}: 200,000 pieces hold under 8 bytes each`, async () => {
      const { stdout } = await run(process.execPath, ['--expose-gc', childScript, 'pieces', kind, '200000'], { timeout: 60_000 });
      const { bytesPerPiece, alive } = JSON.parse(stdout) as { bytesPerPiece: number; alive: boolean };
      assert.ok(alive);
      assert.ok(bytesPerPiece < 8, `${bytesPerPiece.toFixed(1)} bytes a piece`);
    });
  }
});
