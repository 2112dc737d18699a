// Chat tool calls put together from fragments however providers number them, identify them and finish them;
// each stream decoded under every chunking of helpers/decodeBytes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ResponseTooLargeError } from '../../../src/gateway/common/errors';
import { chatSse, decodeBytes, underEveryChunking, type Decoded } from '../helpers/decodeBytes';

const base = { id: 'chatcmpl-tc', object: 'chat.completion.chunk', created: 1764100000, model: 'm' };
/** One chunk whose delta carries `fragments`. */
const fragments = (...calls: Record<string, unknown>[]) => ({ ...base, choices: [{ index: 0, delta: { tool_calls: calls }, finish_reason: null }] });
const finish = { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] };
const check = (bytes: string, expected: (decoded: Decoded, chunking: string) => void) => underEveryChunking('chat', bytes, expected);

describe('chat tool-call fragments', () => {
  test('numbered from 1 and with a gap (1, 3): two calls, in the order they began', async () => {
    const chunks = [
      fragments({ index: 1, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }),
      fragments({ index: 1, function: { arguments: '{"path":"a.ts"}' } }),
      fragments({ index: 3, id: 'call_b', type: 'function', function: { name: 'list_dir', arguments: '{"path":' } }),
      fragments({ index: 3, function: { arguments: '"."}' } }),
      finish,
    ];
    await check(chatSse(chunks), (decoded, chunking) => {
      assert.deepEqual(
        decoded.toolCalls,
        [
          { callId: 'call_a', name: 'read_file', arguments: '{"path":"a.ts"}' },
          { callId: 'call_b', name: 'list_dir', arguments: '{"path":"."}' },
        ],
        chunking,
      );
      assert.equal(decoded.finishReason, 'tool_calls', chunking);
    });
  });

  test('the id in a later fragment, or never (one is made up, a different one per call)', async () => {
    const chunks = [
      fragments({ index: 0, function: { name: 'read_file', arguments: '{"path":' } }),
      fragments({ index: 0, id: 'call_late', function: { arguments: '"a"}' } }),
      fragments({ index: 1, function: { name: 'read_file', arguments: '{"path":"b"}' } }),
      fragments({ index: 2, id: '', function: { name: 'read_file', arguments: '{"path":"c"}' } }),
      finish,
    ];
    await check(chatSse(chunks), (decoded, chunking) => {
      assert.equal(decoded.toolCalls.length, 3, chunking);
      assert.deepEqual(decoded.toolCalls[0], { callId: 'call_late', name: 'read_file', arguments: '{"path":"a"}' }, chunking);
      const [made1, made2] = [decoded.toolCalls[1].callId, decoded.toolCalls[2].callId];
      assert.match(made1, /^call_\w+$/, chunking);
      assert.match(made2, /^call_\w+$/, chunking);
      assert.notEqual(made1, made2, chunking);
      assert.deepEqual(
        decoded.toolCalls.map((call) => call.arguments),
        ['{"path":"a"}', '{"path":"b"}', '{"path":"c"}'],
      );
    });
  });

  test('no index (Gemini): a fragment with a new id starts a call, one without continues the last', async () => {
    const chunks = [
      fragments({ id: 'function-call-1', type: 'function', function: { name: 'grep', arguments: '{"q":' } }),
      fragments({ function: { arguments: '"x"}' } }),
      fragments({ id: 'function-call-2', type: 'function', function: { name: 'grep', arguments: '{"q":"y"}' } }),
      fragments({ id: 'function-call-2', function: { arguments: '' } }),
      finish,
    ];
    await check(chatSse(chunks), (decoded, chunking) => {
      assert.deepEqual(
        decoded.toolCalls,
        [
          { callId: 'function-call-1', name: 'grep', arguments: '{"q":"x"}' },
          { callId: 'function-call-2', name: 'grep', arguments: '{"q":"y"}' },
        ],
        chunking,
      );
    });
  });

  test('every call numbered 0 but each with its own id; the name repeated in every fragment; arguments as an object', async () => {
    const chunks = [
      fragments({ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }),
      fragments({ index: 0, id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":' } }),
      fragments({ index: 0, id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '"b"}' } }),
      fragments({ index: 1, id: 'call_3', type: 'function', function: { name: 'list_dir', arguments: { path: '.' } } }),
      finish,
    ];
    await check(chatSse(chunks), (decoded, chunking) => {
      assert.deepEqual(
        decoded.toolCalls,
        [
          { callId: 'call_1', name: 'read_file', arguments: '{"path":"a"}' },
          { callId: 'call_2', name: 'read_file', arguments: '{"path":"b"}' },
          { callId: 'call_3', name: 'list_dir', arguments: '{"path":"."}' },
        ],
        chunking,
      );
    });
  });

  test('a fragment after the finish reason still counts (the calls are finished with the stream)', async () => {
    const chunks = [
      fragments({ index: 0, id: 'call_x', type: 'function', function: { name: 'run', arguments: '{"cmd":' } }),
      { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }, finish_reason: 'tool_calls' }] },
      fragments({ index: 0, function: { arguments: '' } }),
    ];
    await check(chatSse(chunks), (decoded, chunking) => {
      assert.deepEqual(decoded.toolCalls, [{ callId: 'call_x', name: 'run', arguments: '{"cmd":"ls"}' }], chunking);
    });
  });

  test('a custom tool call the client never offered is a note, not a call; the function call beside it is kept', async () => {
    const chunks = [
      fragments({ index: 0, id: 'call_c', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } }),
      fragments({ index: 1, id: 'call_f', type: 'function', function: { name: 'read_file', arguments: '{}' } }),
      finish,
    ];
    await check(chatSse(chunks), (decoded, chunking) => {
      assert.deepEqual(decoded.toolCalls, [{ callId: 'call_f', name: 'read_file', arguments: '{}' }], chunking);
      assert.deepEqual(decoded.notes, ['custom_tool_call'], chunking);
      const note = decoded.events.find((event) => event.type === 'note');
      assert.match(note?.type === 'note' ? note.text : '', /`custom_tool_call` \(`apply_patch`\).*did not ask for/, chunking);
    });
  });

  test('more calls than any answer makes stop the stream with a size error', async () => {
    const many = Array.from({ length: 129 }, (_, index) =>
      fragments({ index, id: `call_${index}`, type: 'function', function: { name: 'f', arguments: '{}' } }),
    );
    await assert.rejects(
      decodeBytes('chat', chatSse([...many, finish])),
      (error: unknown) => error instanceof ResponseTooLargeError && /128 tool calls/.test(error.message),
    );
    const enough = await decodeBytes('chat', chatSse([...many.slice(0, 128), finish]));
    assert.equal(enough.toolCalls.length, 128);
  });

  test('a name sent in ever more pieces stops the stream with a size error past 1,024 characters; a real one in pieces is kept', async () => {
    // Each piece differs from the name so far, so each is appended: without a bound the name grew to the stream's 256 MB.
    const pieces = Array.from({ length: 1025 }, (_, n) => fragments({ index: 0, function: { name: n % 2 === 0 ? 'a' : 'b' } }));
    await assert.rejects(
      decodeBytes('chat', chatSse([...pieces, finish])),
      (error: unknown) => error instanceof ResponseTooLargeError && /1,024 characters in a tool name/.test(error.message),
    );
    const real = [
      fragments({ index: 0, id: 'call_1', function: { name: 'read_', arguments: '' } }),
      fragments({ index: 0, function: { name: 'file', arguments: '{}' } }),
    ];
    const decoded = await decodeBytes('chat', chatSse([...real, finish]));
    assert.deepEqual(decoded.toolCalls, [{ callId: 'call_1', name: 'read_file', arguments: '{}' }]);
  });
});
