// The session engine against the emulator's scripted code model, on a real temp workspace.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';

let emulator: Emulator;
let workspace: TempWorkspace;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
  workspace.write('a.txt', 'hello world\n');
  workspace.write('src/b.ts', 'export const b = 1;\n');
});
afterEach(() => workspace.dispose());

const responseBodies = () => emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);
const fileText = (path: string) => readFileSync(join(workspace.root, path), 'utf8');

describe('a multi-turn session', () => {
  test('several tool calls per turn, each turn sending only the new items', async () => {
    emulator.script('demo-key', [
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'a.txt' } },
          { name: 'list_files', arguments: { path: '.' } },
        ],
      },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'world', new_text: 'gateway' } }] },
      { text: 'Changed a.txt.' },
    ]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace });
    const state = startSession('Say hello to the gateway in a.txt');
    const events = await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    assert.equal(state.turns, 3);
    assert.equal(fileText('a.txt'), 'hello gateway\n');
    assert.ok(state.usage.totalTokens > 0 && state.usage.totalTokens === state.usage.inputTokens + state.usage.outputTokens);
    assert.deepEqual(state.originals, [{ path: 'a.txt', existed: true }]);

    const bodies = responseBodies();
    assert.equal(bodies.length, 3);
    assert.equal(bodies[0].previous_response_id, undefined);
    assert.deepEqual(bodies[0].input, [{ role: 'user', content: 'Say hello to the gateway in a.txt' }]);
    assert.equal(bodies[1].input.length, 2);
    assert.ok(bodies[1].input.every((item: any) => item.type === 'function_call_output'));
    assert.match(bodies[1].input[0].output, /hello world/);
    assert.match(bodies[1].previous_response_id, /^resp_/);
    assert.equal(bodies[2].input.length, 1);
    for (const body of bodies) {
      assert.equal(typeof body.instructions, 'string');
      assert.deepEqual(
        body.tools.map((t: any) => t.name),
        [
          'read_file',
          'list_files',
          'search_text',
          'edit_file',
          'write_file',
          'run_command',
          'command_output',
          'update_plan',
          'get_problems',
          'code_navigation',
        ],
      );
    }
    const texts = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    assert.equal(texts, 'Changed a.txt.');
    assert.deepEqual(
      events.filter((e) => e.type === 'tool_finished').map((e) => (e.type === 'tool_finished' ? e.outcome.ok : null)),
      [true, true, true],
    );
  });

  test('a follow-up message continues the same chain', async () => {
    emulator.script('demo-key', [{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace });
    const state = startSession('first');
    await runToEnd(engine, state);
    const firstId = state.previousResponseId;
    state.transcript.push({ role: 'user', content: 'and then?' });
    state.unsent.push({ role: 'user', content: 'and then?' });
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    assert.equal(responseBodies()[1].previous_response_id, firstId);
    assert.deepEqual(responseBodies()[1].input, [{ role: 'user', content: 'and then?' }]);
  });

  test('a call to an unknown tool gets a readable answer, and a read-only session has no write tools', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'hello', new_text: 'bye' } }] }, { text: 'ok' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, trusted: false });
    const state = startSession('edit in an untrusted workspace');
    await runToEnd(engine, state);
    assert.equal(fileText('a.txt'), 'hello world\n');
    assert.deepEqual(
      responseBodies()[0].tools.map((t: any) => t.name),
      ['read_file', 'list_files', 'search_text', 'update_plan', 'get_problems', 'code_navigation'],
    );
    assert.match(responseBodies()[1].input[0].output, /There is no tool named "edit_file"/);
  });
});

describe('the lost chain', () => {
  test('previous_response_not_found: the transcript is replayed once, in full, without the id', async () => {
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'Read it.' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, budgets: { maxTurns: 1 } });
    const state = startSession('read a.txt');
    await runToEnd(engine, state);
    assert.equal(state.status, 'stopped');
    emulator.forgetResponses();
    const { engine: resumed } = makeEngine({ baseUrl: emulator.baseUrl, workspace });
    await runToEnd(resumed, state);
    assert.equal(state.status, 'done');
    const bodies = responseBodies();
    assert.equal(bodies.length, 3);
    assert.ok(bodies[1].previous_response_id, 'first tried the chain');
    assert.equal(bodies[2].previous_response_id, undefined);
    assert.deepEqual(
      bodies[2].input.map((item: any) => item.type ?? item.role),
      ['user', 'function_call', 'function_call_output'],
    );
    assert.deepEqual(
      emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.status),
      [200, 400, 200],
    );
  });
});
