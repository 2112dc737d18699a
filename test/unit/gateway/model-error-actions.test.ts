// Which picker fixes a "model not available" error, and which model a continued agent session uses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelForContinuedSession, modelPickersFor } from '../../../src/gateway/common/modelErrorActions';

describe('model pickers for a model_not_found error', () => {
  test('the configured agent model: Select Agent Model only', () => {
    assert.deepEqual(modelPickersFor('gw-code', { chatModel: 'gw-chat', agentModel: 'gw-code' }), ['gateway.selectAgentModel']);
  });

  test('the configured chat model: Select Model only', () => {
    assert.deepEqual(modelPickersFor('gw-chat', { chatModel: 'gw-chat', agentModel: 'gw-code' }), ['gateway.selectModel']);
  });

  test('a default nobody chose, the same model for both, or no model named: both pickers', () => {
    assert.deepEqual(modelPickersFor('gw-chat', { chatModel: '', agentModel: '' }), ['gateway.selectModel', 'gateway.selectAgentModel']);
    assert.deepEqual(modelPickersFor('gw-chat', { chatModel: 'gw-chat', agentModel: 'gw-chat' }), ['gateway.selectModel', 'gateway.selectAgentModel']);
    assert.deepEqual(modelPickersFor(undefined, { chatModel: 'gw-chat', agentModel: 'gw-code' }), ['gateway.selectModel', 'gateway.selectAgentModel']);
  });
});

describe('the model of a continued agent session', () => {
  test('the model chosen with Select Agent Model wins, so a withdrawn model can be replaced', () => {
    assert.equal(modelForContinuedSession('gw-code-old', 'gw-code'), 'gw-code');
  });

  test('without a chosen agent model the session keeps the model it started with', () => {
    assert.equal(modelForContinuedSession('gw-code', ''), 'gw-code');
    assert.equal(modelForContinuedSession('gw-code', '  '), 'gw-code');
  });
});
