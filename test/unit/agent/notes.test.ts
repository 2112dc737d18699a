// Outputs the model sends unasked (calls to tools nobody offered) in an agent session, against the
// emulator over real HTTP: each step shows a few as notes and counts the rest, runs none of them,
// and neither the session nor the next request carries them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';

const fixture = useEmulatorAndWorkspace({ 'a.txt': 'hello\n' });

const unasked = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `apply_patch_${i}`, input: '*** Begin Patch' }));

describe('notes on outputs the agent did not ask for', () => {
  test('a step shows three notes and counts the rest; the next request and the session carry none', async () => {
    fixture.emulator.script('demo-key', [
      { customToolCalls: unasked(5), toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { customToolCalls: unasked(1), text: 'Read a.txt.' },
    ]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace });
    const state = startSession('Read a.txt');
    const events = await runToEnd(engine, state);

    assert.equal(state.status, 'done');
    const notes = events.flatMap((e) => (e.type === 'note' ? [e.text] : []));
    assert.deepEqual(
      notes.map((text) => text.replace(/^The model sent `custom_tool_call` \(`(\w+)`\).*/, '$1')),
      ['apply_patch_0', 'apply_patch_1', 'apply_patch_2', '…and 2 more outputs the extension did not ask for.', 'apply_patch_0'],
    );
    assert.match(notes[0], /did not ask for; it is not shown or acted on\./);
    assert.deepEqual(
      events.flatMap((e) => (e.type === 'tool_finished' ? [e.call.name] : [])),
      ['read_file'],
      'only the offered tool ran',
    );
    assert.equal(events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join(''), 'Read a.txt.');

    const bodies = fixture.emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => JSON.stringify(r.body));
    assert.equal(bodies.length, 2);
    assert.ok(!bodies[1].includes('apply_patch') && !bodies[1].includes('did not ask for'), bodies[1]);
    const kept = JSON.stringify(state);
    assert.ok(!kept.includes('apply_patch') && !kept.includes('did not ask for'), 'the session keeps no note');
  });
});
