// Issue 27 (low): the usage charts give each model and surface one colour in every chart (no colour means two
// things), group slices too small to see into "Other (N)" with their figures, and say the headline once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupSmall, MODEL_COLOURS, modelColour, OTHER_COLOUR, shareText, surfaceColour, type Slice } from '../../../src/usage/common/chartSeries';
import { figureDetail, usagePage } from '../../../src/usage/common/usageHtml';
import { USAGE_SURFACES } from '../../../src/usage/common/usageRecord';
import { summarize } from '../../../src/usage/common/usageSummary';
import { NOON, requestRecord } from '../helpers/usageRecords';

const assets = { cspSource: 'vscode-webview://abc', nonce: 'n0nce', scriptUri: 'u.js', styleUri: 'u.css' };

/** A slice of one day's value. */
function slice(key: string, total: number, colour = 0): Slice<number> {
  const value = (day: number) => (day === 0 ? total : 0);
  return { key, label: key, colour, total, members: [{ key, label: key, total, value }], value };
}

/** The colour class of each legend entry of a chart in the page: label → class. */
function legendColours(html: string, chartId: string): Map<string, string> {
  const section = new RegExp(`<section class="chart" id="${chartId}">[\\s\\S]*?</section>`).exec(html)?.[0] ?? '';
  const entries = [...section.matchAll(/<li[^>]*><span class="swatch (colour-\d+)"><\/span>([^<]+?) <span/g)];
  return new Map(entries.map(([, colour, label]) => [label!, colour!]));
}

test('a model keeps its colour in every chart, and no surface shares a colour with a model or another surface', () => {
  const models = ['gw-a', 'gw-b', 'gw-c', 'gw-d', 'gw-e', 'gw-f', 'gw-g'];
  assert.deepEqual(
    models.map((m) => modelColour(models, m)),
    [0, 1, 2, 3, 4, OTHER_COLOUR, OTHER_COLOUR],
  );
  const surfaces = USAGE_SURFACES.map(surfaceColour);
  assert.equal(new Set(surfaces).size, USAGE_SURFACES.length);
  for (const colour of surfaces) assert.ok(colour >= MODEL_COLOURS && colour !== OTHER_COLOUR, `surface colour ${colour} is none of the models'`);

  // In the page: the same model the same class in the tokens and the cost chart; the surfaces' classes differ from all.
  const entries = [
    requestRecord({ model: 'gw-chat', input: 9_000 }),
    requestRecord({ model: 'gw-code', surface: 'agent', sessionId: 's1', input: 5_000 }),
    requestRecord({ model: 'gw-mini', surface: 'inline', input: 3_000 }),
  ];
  const html = usagePage({ summary: summarize(entries, () => ({ inputPerMillion: 1, outputPerMillion: 1 }), NOON), sessionTitles: new Map() }, assets);
  const byModel = legendColours(html, 'by-model');
  const cost = legendColours(html, 'cost');
  const bySurface = legendColours(html, 'by-surface');
  assert.deepEqual([...byModel.keys()], ['gw-chat', 'gw-code', 'gw-mini']);
  assert.deepEqual(cost, byModel);
  assert.equal(new Set([...byModel.values(), ...bySurface.values()]).size, byModel.size + bySurface.size, JSON.stringify([...byModel, ...bySurface]));
  // Each bar part carries its slice's class, not its position in the chart.
  assert.match(html, /<rect class="colour-1" [^>]*><title>2026-11-23 · gw-code: 5,020<\/title>/);
});

test('slices under 2% are grouped into one grey "Other (N)" that names them with their figures; one alone keeps its name', () => {
  const grouped = groupSmall([slice('big', 1_000, 0), slice('small', 10, 1), slice('tiny', 5, 2), slice('none', 0, 3)], { otherLabel: 'Other' });
  assert.deepEqual(
    grouped.map((s) => [s.label, s.total, s.colour]),
    [
      ['big', 1_000, 0],
      ['Other (2)', 15, OTHER_COLOUR],
    ],
  );
  assert.deepEqual(
    grouped[1]!.members.map((m) => [m.label, m.total]),
    [
      ['small', 10],
      ['tiny', 5],
    ],
  );
  assert.equal(grouped[1]!.value(0), 15, 'the group adds its members day by day');
  // A single small slice stays itself (grouping it would only hide its name); an empty one is dropped.
  assert.deepEqual(
    groupSmall([slice('big', 1_000), slice('small', 10), slice('none', 0)], { otherLabel: 'Other' }).map((s) => s.label),
    ['big', 'small'],
  );
  // Past the most slices shown alone, however big.
  assert.deepEqual(
    groupSmall([slice('a', 500), slice('b', 400), slice('c', 300), slice('d', 200)], { otherLabel: 'Other models', maxSlices: 2 }).map((s) => s.label),
    ['a', 'b', 'Other models (2)'],
  );
  assert.equal(shareText(20, 1_015, String), '20 · 2%');
  assert.equal(shareText(1, 1_015, String), '1 · <1%');
});

test('in the page a sliver is in the legend with its figure, and the group’s tooltip lists its members', () => {
  const entries = [
    requestRecord({ model: 'gw-chat', input: 100_000 }),
    requestRecord({ model: 'gw-code', surface: 'agent', sessionId: 's1', input: 500 }),
    requestRecord({ model: 'gw-mini', surface: 'inline', input: 300 }),
  ];
  const html = usagePage({ summary: summarize(entries, () => undefined, NOON), sessionTitles: new Map() }, assets);
  assert.match(
    html,
    /<li title="gw-code: 520, gw-mini: 320"><span class="swatch colour-9"><\/span>Other models \(2\) <span class="figure-of">840 · &lt;1%<\/span><\/li>/,
  );
  assert.match(html, /<title>2026-11-23 · Other models \(2\): 840 \(gw-code: 520, gw-mini: 320\)<\/title>/);
  assert.match(html, /<span class="swatch colour-5"><\/span>@gateway chat <span class="figure-of">100,020 · 99%<\/span>/);
});

test('a figure says its number once: the line under it is what the number is made of', () => {
  const entries = [requestRecord({ input: 1_200, output: 300 }), requestRecord({ input: 100, output: 20 })];
  const summary = summarize(entries, () => undefined, NOON);
  assert.equal(figureDetail(summary.today, false), '1,300 in, 320 out · 2 requests');
  const html = usagePage({ summary, sessionTitles: new Map() }, assets);
  const today = /<div class="figure" id="today">([\s\S]*?)<\/div><\/div>/.exec(html)?.[1] ?? '';
  assert.equal(today.split('1,620').length - 1, 1, `the total appears once in today's figure (${today})`);
  const priced = summarize(entries, () => ({ inputPerMillion: 1_000, outputPerMillion: 1_000 }), NOON);
  assert.equal(figureDetail(priced.today, true), '1,620 tokens · 2 requests');
});
