// What each failure offers the user, as notification and chat buttons: the action that mends it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionsFor } from '../../../src/gateway/vscode/errorActions';
import { BalanceError, MissingApiKeyError, PacingQueueFullError } from '../../../src/gateway/common/errors';

const configured = { chatModel: 'gw-chat', agentModel: 'gw-code' };
const titles = (error: unknown) => actionsFor(error, configured).map((command) => command.title);

test('a full pacing queue offers the Sessions view (where a session is stopped) and the limits', () => {
  const actions = actionsFor(new PacingQueueFullError(64), configured);
  assert.deepEqual(
    actions.map((command) => command.command),
    ['gateway.agent.show', 'gateway.openLimits'],
  );
});

test('the other failures keep their one action', () => {
  assert.deepEqual(titles(new MissingApiKeyError()), ['Set API Key']);
  assert.deepEqual(titles(new BalanceError('empty', 'https://gateway.example/billing')), ['Top up']);
  assert.deepEqual(titles(new Error('something else')), []);
});
