// Which Chat view turns go into the chat model's prompt (src/chat/common/historyTurns.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conversationTurns, type HistoryEntry } from '../../../src/chat/common/historyTurns';
import { noteMarkdown } from '../../../src/chat/common/notes';

const ME = 'gateway.chat';
const ask = (text: string, command?: string): HistoryEntry => ({ kind: 'request', participant: ME, command, text });
const answer = (text: string, metadata?: unknown, command?: string): HistoryEntry => ({ kind: 'response', participant: ME, command, metadata, text });

void describe('chat history for the prompt', () => {
  void it('keeps plain chat turns, with their slash command', () => {
    const history = [
      ask('what is this?'),
      answer('a parser', { model: 'gw-chat' }),
      ask('the selection', 'explain'),
      answer('it parses', { model: 'gw-chat', command: 'explain' }),
    ];
    assert.deepEqual(conversationTurns(history, ME), [
      { role: 'user', text: 'what is this?' },
      { role: 'assistant', text: 'a parser' },
      { role: 'user', text: '/explain the selection' },
      { role: 'assistant', text: 'it parses' },
    ]);
  });

  void it('leaves out the notes an answer showed (as VS Code hands them back: merged into its markdown)', () => {
    const note = noteMarkdown('The model sent `web_search_call`, which the extension did not ask for; it is not shown or acted on.');
    const rest = noteMarkdown('…and 2 more outputs the extension did not ask for.');
    const history = [ask('weather?'), answer(`It is sunny.${note}Take a hat.${rest}`, { model: 'gw-chat', notes: [note, rest] }), ask('and tomorrow?')];
    assert.deepEqual(conversationTurns(history, ME), [
      { role: 'user', text: 'weather?' },
      { role: 'assistant', text: 'It is sunny.Take a hat.' },
      { role: 'user', text: 'and tomorrow?' },
    ]);
  });

  void it("drops a question that failed and its failure (the Gateway unreachable): the error text is not the model's answer", () => {
    const failure =
      '\n\n$(error) Could not reach the Gateway at http://127.0.0.1:9/v1 (connect ECONNREFUSED). Check the "gateway.baseUrl" setting and your network.\n\n';
    const history = [
      ask('is the gateway reachable'),
      answer(failure, { model: 'gw-chat-mini', failed: true, retry: { prompt: 'is the gateway reachable' } }),
      ask('is the gateway reachable'),
      answer('Echo: is the gateway reachable', { model: 'gw-chat-mini' }),
    ];
    assert.deepEqual(conversationTurns(history, ME), [
      { role: 'user', text: 'is the gateway reachable' },
      { role: 'assistant', text: 'Echo: is the gateway reachable' },
    ]);
  });

  void it('drops a turn answered without a request (an /explain with nothing to explain)', () => {
    const history = [
      ask('', 'explain'),
      answer('Select code in an editor, or attach a file with #, then ask again.', { command: 'explain', unsent: true }),
      ask('what is this?'),
      answer('a parser', { model: 'gw-chat' }),
    ];
    assert.deepEqual(conversationTurns(history, ME), [
      { role: 'user', text: 'what is this?' },
      { role: 'assistant', text: 'a parser' },
    ]);
  });

  void it('drops /agent turns and the follow-ups that went to the agent session, with their answers', () => {
    const history = [
      ask('add a test', 'agent'),
      answer('Session done', { command: 'agent', sessionId: 's1' }, 'agent'),
      ask('now also for parseSize'),
      answer('Session done', { command: 'agent', sessionId: 's1' }),
      ask('the selection', 'explain'),
      answer('it parses', { model: 'gw-chat', command: 'explain' }),
    ];
    assert.deepEqual(conversationTurns(history, ME), [
      { role: 'user', text: '/explain the selection' },
      { role: 'assistant', text: 'it parses' },
    ]);
  });

  void it('drops an /agent turn that failed before a session existed', () => {
    const history = [ask('x', 'agent'), answer('', { command: 'agent', failed: true }), ask('hello'), answer('hi', { model: 'm' })];
    assert.deepEqual(conversationTurns(history, ME), [
      { role: 'user', text: 'hello' },
      { role: 'assistant', text: 'hi' },
    ]);
  });

  void it("ignores other participants' turns and keeps a last request without an answer", () => {
    const other: HistoryEntry[] = [
      { kind: 'request', participant: 'other', text: 'q' },
      { kind: 'response', participant: 'other', text: 'a' },
    ];
    assert.deepEqual(conversationTurns([...other, ask('pending')], ME), [{ role: 'user', text: 'pending' }]);
  });
});
