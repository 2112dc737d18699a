// A slice of the near-miss bench (test/bench/nearMiss.ts): edits made from real files of public
// repositories the way models miscopy them land at the meant place, and never at another.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { categories } from '../../bench/nearMissCases';
import { NEAR_MISS_SEED, currentEditFile, nearMissCases, tallyCases } from '../../bench/nearMiss';

/** One corpus file in four: every language and category is still there, in a quarter of the time. */
const cases = nearMissCases(NEAR_MISS_SEED, 4);
const tallies = tallyCases(cases, currentEditFile);

test('the slice has cases of every category', () => {
  for (const category of categories) assert.ok(tallies.get(category)!.cases >= 10, `${category}: ${tallies.get(category)!.cases} cases`);
});

test('no edit lands at a wrong place, in any category (the adversarial decoys included)', () => {
  for (const [category, tally] of tallies) assert.equal(tally.wrong, 0, `${category}: ${JSON.stringify(tally.wrongExamples.map((c) => [c.file, c.oldText]))}`);
});

test('every near-miss category lands at least 95 % at the meant place; the adversarial ones land or are refused', () => {
  for (const [category, tally] of tallies) {
    if (category.startsWith('adversarial')) {
      assert.equal(tally.right + tally.refused, tally.cases, category);
      continue;
    }
    assert.ok(tally.right >= 0.95 * tally.cases, `${category}: ${tally.right} of ${tally.cases}`);
  }
});

test("indentation and punctuation near-misses keep the file's style", () => {
  for (const category of ['tabs / spaces', 'block shifted or dedented', 'first line unindented', 'typographic punctuation'] as const) {
    const tally = tallies.get(category)!;
    assert.ok(tally.rightInStyle >= 0.9 * tally.cases, `${category}: ${tally.rightInStyle} of ${tally.cases} in the file's style`);
  }
});
