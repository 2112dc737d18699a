// Through the session engine and the emulator over HTTP: the tool round adds the problems a write introduced
// to the output the model reads next (language services in memory, virtual time for the settling).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';
import { VirtualClock } from '../helpers/clock';
import { MemoryLanguageServices, problem } from '../helpers/memoryLanguages';

const fixture = useEmulatorAndWorkspace({ 'src/a.ts': 'export const a: number = 1;\n' });

describe('a write in a session', () => {
  test("the next request carries the write's new error; a read is answered as before", async () => {
    const clock = new VirtualClock();
    // The "compiler" of this test: a string where a number belongs is an error.
    const languages = new MemoryLanguageServices({
      clock,
      check: async (path) => {
        const text = await clock.hold(readFile(join(fixture.workspace.root, path), 'utf8'));
        return text.includes("number = '") ? [problem(path, 1, "Type 'string' is not assignable to type 'number'.")] : [];
      },
    });
    fixture.emulator.script('demo-key', [
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: '= 1', new_text: "= 'one'" } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] },
      { text: 'Done.' },
    ]);
    const { engine } = makeEngine({ baseUrl: fixture.emulator.baseUrl, workspace: fixture.workspace, clock, languages });
    const state = startSession('Make a a string');
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    const outputs = fixture.emulator.requests
      .filter((request) => request.path === '/v1/responses')
      .flatMap((request) => (request.body as { input: { type?: string; output?: string }[] }).input)
      .flatMap((item) => (item.type === 'function_call_output' ? [item.output] : []));
    assert.deepEqual(outputs, [
      "Wrote src/a.ts (1 line).\n\nVS Code now reports 1 new error in src/a.ts:\nsrc/a.ts:1:1: error TS2322 Type 'string' is not assignable to type 'number'.",
      "export const a: number = 'one';",
    ]);
  });
});
