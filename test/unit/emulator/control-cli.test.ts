// Driving the gateway emulator from outside: the request log, the /_emulator control API, close(), and the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { call, chatBody, json, post } from '../../emulator/test-helpers';
import { contentDeltas, readAll } from '../helpers/emulator';
import { emulatorCommand } from '../helpers/emulatorCli';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

void describe('request log and control API', () => {
  void it('records every request with masked authorization, parsed body and status', async () => {
    await post(emu, '/v1/chat/completions', chatBody('logged'), { headers: { 'user-agent': 'test-agent/1.0' } });
    await call(emu, 'GET', '/v1/models', undefined, { key: null });
    await call(emu, 'GET', '/_emulator/requests');
    assert.equal(emu.requests.length, 2);
    const [a, b] = emu.requests;
    assert.deepEqual([a.method, a.path, a.key, a.status], ['POST', '/v1/chat/completions', 'demo-key', 200]);
    assert.equal(a.headers.authorization, 'Bearer ***');
    assert.equal(a.headers['user-agent'], 'test-agent/1.0');
    assert.deepEqual(a.body, chatBody('logged'));
    assert.ok(Math.abs(a.time - Date.now()) < 5000);
    assert.deepEqual([b.method, b.path, b.key, b.status, b.body], ['GET', '/v1/models', null, 401, null]);
  });

  void it('drives keys, scripts, faults, the log, forgetting and reset over HTTP', async () => {
    const ctl = (path: string, body?: unknown): Promise<Response> => call(emu, body === undefined ? 'GET' : 'POST', `/_emulator/${path}`, body, { key: null });
    assert.equal((await ctl('keys', { key: 'ctl-key', models: ['gw-chat'], balance: 1000, rpm: 5 })).status, 200);
    assert.equal((await ctl('script', { key: 'ctl-key', turns: [{ text: 'from control' }] })).status, 200);
    const r1 = await post(emu, '/v1/chat/completions', chatBody('x'), { key: 'ctl-key' });
    assert.equal(r1.headers.get('x-ratelimit-limit-requests'), '5');
    assert.equal((await json(r1)).choices[0].message.content, 'from control');
    assert.equal((await ctl('fault', { key: 'ctl-key', fault: { kind: '503' } })).status, 200);
    assert.equal((await post(emu, '/v1/chat/completions', chatBody('x'), { key: 'ctl-key' })).status, 503);
    const log = await json(await ctl('requests'));
    assert.deepEqual(
      log.map((r: any) => r.status),
      [200, 503],
    );
    assert.ok((await json(await ctl('balance?key=ctl-key'))).balance < 1000);
    const resp = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x' }));
    assert.equal((await ctl('forget-responses', {})).status, 200);
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', previous_response_id: resp.id })).status, 400);
    assert.equal((await ctl('reset', {})).status, 200);
    assert.equal(emu.requests.length, 0);
    assert.equal(emu.balance('ctl-key'), 1000);
    assert.equal((await ctl('fault', { key: 'ctl-key', fault: { kind: 'boom' } })).status, 400);
    assert.equal((await ctl('script', { key: 'ctl-key' })).status, 400);
    assert.equal((await ctl('nothing', {})).status, 404);
  });

  void it('close() ends streams in progress', async () => {
    const e2 = await startEmulator();
    e2.fault('demo-key', { kind: 'stall', afterDeltas: 1 });
    const res = await post(e2, '/v1/responses', { model: 'gw-code', input: 'a b c', stream: true });
    let firstDelta = () => undefined as void;
    const firstDeltaArrived = new Promise<void>((resolve) => (firstDelta = resolve));
    const reading = readAll(res, (text) => contentDeltas(text).length > 0 && firstDelta());
    await firstDeltaArrived;
    await e2.close();
    const got = await reading;
    assert.equal(got.failed, true);
    assert.equal(contentDeltas(got.text).length, 1);
  });
});

void describe('CLI', () => {
  void it('starts with flags, prints the address and keys, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, emulatorCommand(['--port', '0', '--rpm', '7', '--no-ratelimit-headers']), {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      for await (const chunk of child.stdout) {
        out += chunk as string;
        if (out.includes('small-key')) break;
      }
      const url = /Gateway emulator listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
      assert.ok(url, out);
      assert.match(out, /demo-key: models gw-chat, gw-chat-pro, gw-chat-mini, gw-code; balance 1000000000000; 7 RPM, 200000 TPM/);
      const res = await fetch(`${url}/models`, { headers: { authorization: 'Bearer small-key' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit-requests'), null);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
