// @gateway's small manners (issue 27): each answer names its model, a repeated `@gateway` mention is not sent as a question.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelFooter } from '../../../src/chat/common/modelFooter';
import { withoutNotes } from '../../../src/chat/common/notes';
import { withoutRepeatedMention } from '../../../src/chat/common/repeatedMention';

const COMMANDS = ['explain', 'fix', 'agent', 'compact'];
const clean = (prompt: string, command?: string) => withoutRepeatedMention({ prompt, command, participantName: 'gateway', commands: COMMANDS });

describe('withoutRepeatedMention', () => {
  test('"@gateway /agent fix it" typed after the input held @gateway: the agent command with the task', () => {
    assert.deepEqual(clean('@gateway /agent fix it'), { prompt: 'fix it', command: 'agent' });
    assert.deepEqual(clean('  @Gateway  @gateway /explain'), { prompt: '', command: 'explain' });
  });

  test('a repeated mention before a question is dropped; an unknown slash word stays in the question', () => {
    assert.deepEqual(clean('@gateway what is this?'), { prompt: 'what is this?', command: undefined });
    assert.deepEqual(clean('@gateway /deploy now'), { prompt: '/deploy now', command: undefined });
  });

  test('a command VS Code parsed is kept; a prompt without the mention is the same', () => {
    assert.deepEqual(clean('@gateway fix it', 'agent'), { prompt: 'fix it', command: 'agent' });
    assert.deepEqual(clean('ask @gateway about @gatewayish', undefined), { prompt: 'ask @gateway about @gatewayish', command: undefined });
    assert.deepEqual(clean('@gatewayish hi'), { prompt: '@gatewayish hi', command: undefined });
  });
});

describe('modelFooter', () => {
  test('names the model, and leaves the history with the notes', () => {
    const footer = modelFooter('gw-chat-mini');
    assert.match(footer, /Answered by `gw-chat-mini`/);
    assert.equal(withoutNotes(`Echo: hi${footer}`, [footer]), 'Echo: hi');
  });

  test('a backtick in a model id cannot end the code span', () => {
    assert.equal(modelFooter('a`b\nc'), '\n\n_Answered by `abc`_\n');
  });
});
