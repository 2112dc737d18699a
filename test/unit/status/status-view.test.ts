// What the status bar item says in each state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LimitSnapshot } from '../../../src/rateLimits/common/limitTypes';
import { compact, formatStatus } from '../../../src/status/common/statusView';

const now = 1_000_000;
const snapshot = (over: Partial<LimitSnapshot> = {}): LimitSnapshot => ({
  source: 'headers',
  limits: 'reported',
  requestLimit: 60,
  requestsRemaining: 57,
  requestsResetAt: now + 3000,
  tokenLimit: 200_000,
  tokensRemaining: 195_500,
  tokensResetAt: now + 1000,
  tokensSpentThisWindow: 4500,
  rateLimitedUntil: undefined,
  requestsWaiting: 0,
  balance: 'ok',
  reach: 'ok',
  ...over,
});
const view = (over: Partial<LimitSnapshot> = {}, hasKey = true) =>
  formatStatus({ model: 'gw-chat', hasKey, snapshot: snapshot(over), siteUrl: 'https://gateway.example/', now });

describe('formatStatus', () => {
  test('normal: model, requests and tokens left; tooltip with limits, spend and links', () => {
    const v = view();
    assert.equal(v.state, 'normal');
    assert.equal(v.text, '$(sparkle) gw-chat · 57/60 req · 195k tok');
    const tip = v.tooltip.join('\n');
    assert.match(tip, /Requests this minute: 57 of 60 left \(frees in 3 s\)/);
    assert.match(tip, /Tokens this minute: 195k of 200k left \(frees in 1 s\)/);
    assert.match(tip, /Tokens spent in this window: 4,500/);
    assert.match(tip, /\(https:\/\/gateway\.example\/cabinet\/limits\)/);
    assert.match(tip, /\(https:\/\/gateway\.example\/cabinet\/billing\)/);
  });

  test('no site known (no base URL set): no Limits or Billing link to a made-up address', () => {
    const tip = formatStatus({ model: 'gw-chat', hasKey: true, snapshot: snapshot(), siteUrl: undefined, now }).tooltip.join('\n');
    assert.doesNotMatch(tip, /cabinet|\[Limits\]|\[Billing\]|undefined/);
    assert.match(tip, /\[Select model\]\(command:gateway\.selectModel\)/);
  });

  test('waiting: a countdown in whole seconds', () => {
    const v = view({ rateLimitedUntil: now + 11_200 });
    assert.equal(v.state, 'waiting');
    assert.equal(v.text, '$(watch) gw-chat · rate limited, 12s');
  });

  test('a past wait is no longer shown', () => {
    assert.equal(view({ rateLimitedUntil: now - 1 }).state, 'normal');
  });

  test('depleted wins over everything but a missing key', () => {
    const v = view({ balance: 'depleted', rateLimitedUntil: now + 5000 });
    assert.equal(v.state, 'depleted');
    assert.equal(v.text, '$(error) gw-chat · Top up');
    assert.equal(view({ balance: 'depleted' }, false).state, 'no-key');
  });

  test('local counting is labelled as such', () => {
    assert.match(view({ source: 'local' }).tooltip.join('\n'), /counted by the extension since its last report/);
    const headerless = view({ source: 'local', limits: 'not_sent' });
    assert.match(headerless.tooltip.join('\n'), /sends no limit headers: these are the configured limits/);
    assert.equal(headerless.text, '$(sparkle) gw-chat · limits not reported', "the configured limits are not shown as the Gateway's");
  });

  test('before the Gateway reported its limits, no assumed limit is shown as its', () => {
    const v = view({ source: 'local', limits: 'unknown', requestLimit: 60, requestsRemaining: 59 });
    assert.equal(v.text, '$(sparkle) gw-chat · limits not known yet');
    const tip = v.tooltip.join('\n');
    assert.match(tip, /Limits: not known yet/);
    assert.doesNotMatch(tip, /of 60|59/);
  });

  test("the Gateway's reported limits are what the text shows", () => {
    assert.equal(view({ requestLimit: 1, requestsRemaining: 0, tokenLimit: 5000, tokensRemaining: 4000 }).text, '$(sparkle) gw-chat · 0/1 req · 4000 tok');
  });

  test('compact numbers', () => {
    assert.deepEqual(
      [compact(950), compact(9999), compact(10_000), compact(200_000), compact(1_500_000), compact(2_000_000)],
      ['950', '9999', '10k', '200k', '1.5M', '2M'],
    );
  });
});

describe('formatStatus with an unusual model name', () => {
  test('a very long model name is shortened in the text, whole in the tooltip', () => {
    const long = `gw-${'x'.repeat(200)}`;
    const v = formatStatus({ model: long, hasKey: true, snapshot: snapshot(), siteUrl: 'https://gateway.example/', now });
    assert.ok(v.text.length < 80, v.text);
    assert.match(v.text, /…/);
    assert.ok(v.tooltip[0]!.includes(long));
  });

  test('a model name cannot add links or icons', () => {
    const v = formatStatus({ model: '$(alert) [x](command:gateway.setApiKey)', hasKey: true, snapshot: snapshot(), siteUrl: 'https://gateway.example/', now });
    assert.doesNotMatch(v.text, /\$\(alert\)/);
    assert.doesNotMatch(v.tooltip[0]!, /(?<!\\)\[x(?<!\\)\]/);
  });
});

describe('formatStatus and the last request', () => {
  test("the tooltip shows the size of the last request against its model's window", () => {
    const v = formatStatus({
      model: 'gw-code',
      hasKey: true,
      snapshot: snapshot(),
      siteUrl: 'https://gateway.example/',
      now,
      lastRequest: { inputTokens: 23_456, contextWindow: 32_000 },
    });
    assert.ok(v.tooltip.includes('Last request: 23,456 input tokens of a 32k window'), v.tooltip.join('\n'));
    const none = formatStatus({ model: 'gw-code', hasKey: true, snapshot: snapshot(), siteUrl: 'https://gateway.example/', now });
    assert.ok(!none.tooltip.some((line) => line.startsWith('Last request')));
  });
});
