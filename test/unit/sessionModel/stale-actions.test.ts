// Issue 27 (low): buttons of notifications and chat turns outlive what they act on; when clicked they say why
// they no longer apply and what to do now, instead of failing or doing nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionActionNoLongerApplies } from '../../../src/sessionModel/common/staleActions';
import { keyOriginNoLongerApplies } from '../../../src/gateway/common/keyOrigin';
import { exportGoneMessage } from '../../../src/usage/common/usageSummary';

const saved = { id: 's1', title: 'Fix the tests' };

test('a session button: deleted says so and what to do now; running again says where to follow it; otherwise it applies', () => {
  for (const action of ['continue', 'review', 'restore'] as const) {
    assert.match(sessionActionNoLongerApplies(action, undefined, false)!, /^That agent session was deleted, so this button no longer applies\. \S/);
  }
  assert.match(sessionActionNoLongerApplies('continue', undefined, false)!, /Gateway: Start Agent Session…/);
  assert.match(sessionActionNoLongerApplies('review', undefined, false)!, /Its changes stay in your files/);
  assert.equal(
    sessionActionNoLongerApplies('continue', saved, true),
    '"Fix the tests" is already running (it was continued from somewhere else): follow it in the Sessions view.',
  );
  assert.match(sessionActionNoLongerApplies('restore', saved, true)!, /^"Fix the tests" is running again, so this restore was not done: stop it/);
  assert.equal(sessionActionNoLongerApplies('continue', saved, false), undefined);
  assert.equal(sessionActionNoLongerApplies('restore', saved, false), undefined);
  // Reviewing a running session's changes still applies; an untitled session is named by its id.
  assert.equal(sessionActionNoLongerApplies('review', saved, true), undefined);
  assert.match(sessionActionNoLongerApplies('continue', { id: 's2', title: '' }, true)!, /^"s2" is already running/);
});

test('"Allow the Key There" from an older notice: no key, no address, or already allowed each say so; a moved address still asks', () => {
  assert.match(keyOriginNoLongerApplies({ hasKey: false, requestOrigin: 'https://b.example' })!, /no API key stored any more.*Gateway: Set API Key/);
  assert.match(keyOriginNoLongerApplies({ hasKey: true, keyOrigin: 'https://a.example' })!, /gateway\.baseUrl.*fix the setting first/);
  assert.match(
    keyOriginNoLongerApplies({ hasKey: true, keyOrigin: 'https://b.example', requestOrigin: 'https://b.example' })!,
    /already goes to https:\/\/b\.example: nothing to allow/,
  );
  assert.equal(keyOriginNoLongerApplies({ hasKey: true, keyOrigin: 'https://a.example', requestOrigin: 'https://b.example' }), undefined);
  assert.equal(
    keyOriginNoLongerApplies({ hasKey: true, requestOrigin: 'https://b.example' }),
    undefined,
    'a key stored before the binding is bound on confirm',
  );
});

test('the export notification’s Open on a file moved or deleted since names it and says how to export again', () => {
  assert.equal(
    exportGoneMessage('/home/u/usage.csv'),
    'The usage export /home/u/usage.csv is no longer there (moved or deleted since), so there is nothing to open. Export it again with "Export as CSV…" on the Gateway Usage page.',
  );
});
