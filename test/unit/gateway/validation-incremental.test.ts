// validateRespondParams parses only the input items it has not seen as they are now: an agent's growing
// conversation costs one parse per new item, not one per item per turn, and an item changed since
// (or replaced) is checked again, with the same message a first check gives.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidRequestError, type ResponseInputItem, type RespondParams } from '../../../src/gateway/common';
import { inputItemsParsed, validateRespondParams } from '../../../src/gateway/common/validation';

function turn(i: number): ResponseInputItem[] {
  return [
    { type: 'function_call', call_id: `c${i}`, name: 'read_file', arguments: `{"path":"src/f${i}.ts"}` },
    { type: 'function_call_output', call_id: `c${i}`, output: `contents of f${i}` },
  ];
}

const params = (input: ResponseInputItem[]): RespondParams => ({ model: 'gw-code', input, tools: [{ name: 'read_file' }] });

/** The message a first check of a copy gives (nothing of it seen before). */
function freshMessage(input: ResponseInputItem[]): string {
  try {
    validateRespondParams(params(structuredClone(input)));
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError);
    return error.message;
  }
  assert.fail('the copy passed');
}

function messageOf(input: ResponseInputItem[]): string {
  try {
    validateRespondParams(params(input));
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError);
    return error.message;
  }
  assert.fail('it passed');
}

describe('validateRespondParams, item by item', () => {
  test('a conversation growing by one turn a request parses only the new turn’s items', () => {
    const input: ResponseInputItem[] = [{ role: 'user', content: 'fix the tests' }];
    validateRespondParams(params(input));
    for (let i = 0; i < 200; i++) {
      input.push(...turn(i));
      const before = inputItemsParsed();
      // A new array each request, as the agent builds it, of the same item objects.
      validateRespondParams(params([...input]));
      assert.equal(inputItemsParsed() - before, 2, `turn ${i}`);
    }
  });

  test('an item changed after it passed is checked again and refused, with the message a first check gives', () => {
    const input = [{ role: 'user' as const, content: 'go' }, ...turn(1), ...turn(2)];
    validateRespondParams(params(input));
    const output = input[2] as { call_id: string };
    output.call_id = '';
    const message = messageOf(input);
    assert.equal(message, freshMessage(input));
    assert.match(message, /input/);
  });

  test('an earlier item replaced by another object (a changed prefix) is checked again', () => {
    const input: ResponseInputItem[] = [{ role: 'user', content: 'go' }, ...turn(1), ...turn(2)];
    validateRespondParams(params(input));
    const replaced = [...input];
    replaced[1] = { type: 'function_call', call_id: 'c1', name: '', arguments: '{}' };
    assert.equal(messageOf(replaced), freshMessage(replaced));
    // The same items as plain copies pass: equal content is as good as the objects seen.
    const copies = structuredClone(input);
    const before = inputItemsParsed();
    validateRespondParams(params(copies));
    assert.equal(inputItemsParsed() - before, copies.length, 'copies are new objects: each parsed once');
  });

  test('what is not an item, and the parameters around the input, are still checked on every call', () => {
    const input: ResponseInputItem[] = [{ role: 'user', content: 'go' }, ...turn(1)];
    validateRespondParams(params(input));
    const hostile = [...input, null] as unknown as ResponseInputItem[];
    assert.equal(messageOf(hostile), freshMessage(hostile));
    assert.throws(() => validateRespondParams({ ...params(input), temperature: 3 }), /temperature must be between 0 and 2/);
    assert.throws(() => validateRespondParams({ ...params(input), toolChoice: { name: 'nope' } }), /tool_choice names "nope"/);
    assert.throws(() => validateRespondParams(params([])), /input is empty/);
  });

  test('a role changed to one the interface does not know is refused though the object passed before', () => {
    const item = { role: 'user', content: 'go' } as { role: string; content: string };
    const input = [item] as ResponseInputItem[];
    validateRespondParams(params(input));
    item.role = 'root';
    assert.throws(() => validateRespondParams(params(input)), InvalidRequestError);
  });
});
