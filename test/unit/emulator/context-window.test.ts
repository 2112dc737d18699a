// The gateway emulator's context windows: a request whose input passes the model's window answers 400 context_length_exceeded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { json, post } from '../../emulator/test-helpers';
import { emulatorCommand } from '../helpers/emulatorCli';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0, contextWindows: { 'gw-code': 100, 'gw-chat': 50 } });
});
after(() => emu.close());
beforeEach(() => emu.reset());

/** `tokens` tokens of text as the emulator counts them (4 chars a token). */
const text = (tokens: number): string => 'abcd'.repeat(tokens);

void describe('emulator context windows', () => {
  void it('answers exactly the overflow error on /responses, with param input', async () => {
    const res = await post(emu, '/v1/responses', { model: 'gw-code', input: text(101) });
    assert.equal(res.status, 400);
    assert.deepEqual(await json(res), {
      error: {
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        message: "This model's maximum context length is 100 tokens. However, your messages resulted in 101 tokens. Please reduce the length of the messages.",
        param: 'input',
      },
    });
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-code', input: text(100) })).status, 200);
  });

  void it('counts the stored conversation of previous_response_id plus the new items', async () => {
    const first = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: text(40) }));
    // The stored conversation is 160 chars of input and the echo's answer of 166 chars: 326 chars, + 80 new = 102 tokens.
    const res = await post(emu, '/v1/responses', { model: 'gw-code', input: text(20), previous_response_id: first.id });
    const body = await json(res);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.error.code, 'context_length_exceeded');
    assert.match(body.error.message, /maximum context length is 100 tokens\. However, your messages resulted in 102 tokens/);
    // The same new items alone fit: only the chain made it too long.
    assert.equal((await post(emu, '/v1/responses', { model: 'gw-code', input: text(20) })).status, 200);
  });

  void it('answers param messages on chat completions; other models keep their defaults', async () => {
    const res = await post(emu, '/v1/chat/completions', {
      model: 'gw-chat',
      messages: [
        { role: 'system', content: text(30) },
        { role: 'user', content: text(21) },
      ],
    });
    const body = await json(res);
    assert.equal(res.status, 400);
    assert.equal(body.error.param, 'messages');
    assert.equal(body.error.code, 'context_length_exceeded');
    assert.match(body.error.message, /^This model's maximum context length is 50 tokens\. However, your messages resulted in 51 tokens\./);
    assert.equal((await post(emu, '/v1/chat/completions', { model: 'gw-chat-mini', messages: [{ role: 'user', content: text(31_000) }] })).status, 200);
    assert.equal((await post(emu, '/v1/chat/completions', { model: 'gw-chat-mini', messages: [{ role: 'user', content: text(32_001) }] })).status, 400);
  });

  void it('leaves a scripted turn with tool calls for a request that declares tools', async () => {
    emu.script('demo-key', [{ text: 'calling', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }]);
    const summary = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'Summarize.' }));
    assert.equal(summary.output[0].content[0].text, 'Echo: Summarize.');
    const tools = [{ type: 'function', name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const turn = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'go', tools }));
    assert.equal(turn.output.at(-1).type, 'function_call');
  });
});

void describe('emulator CLI context windows', () => {
  void it('takes --context-window (repeatable) and contextWindows from the --config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-cw-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ contextWindows: { 'gw-chat-pro': 300 } }));
    const args = emulatorCommand(['--port', '0', '--config', config, '--context-window', 'gw-code=8000', '--context-window', 'gw-chat=20']);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      for await (const chunk of child.stdout) {
        out += chunk as string;
        if (out.includes('small-key')) break;
      }
      assert.match(out, /Context windows: gw-chat 20, gw-chat-pro 300, gw-chat-mini 32000, gw-code 8000/);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
      const send = (model: string, tokens: number) =>
        fetch(`${url}/responses`, {
          method: 'POST',
          headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
          body: JSON.stringify({ model, input: text(tokens) }),
        });
      assert.equal((await send('gw-code', 8001)).status, 400);
      assert.equal((await send('gw-code', 8000)).status, 200);
      assert.equal((await send('gw-chat-pro', 301)).status, 400);
      assert.equal((await send('gw-chat', 21)).status, 400);
      child.kill('SIGTERM');
      await once(child, 'exit');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
