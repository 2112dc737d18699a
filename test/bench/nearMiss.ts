/**
 * The near-miss edit bench: edits made from real files the way models get them
 * wrong, each category counted by where the edit landed: at the meant place (and
 * whether in the file's own style), refused, or at a wrong place.
 */
import { replaceOnce } from '../../src/tools/common/editFile';
import { categories, makeCase, type Category, type NearMissCase } from './nearMissCases';
import { readCorpus, seededRandom, type CorpusFile } from './nearMissCorpus';

export const NEAR_MISS_SEED = 23;
/** Cases per file and category: enough for about a thousand cases over the corpus. */
const ROUNDS = 2;

/** What an edit tool does with a case: the new file text, or undefined when it refused. */
export type EditAttempt = (text: string, oldText: string, newText: string) => string | undefined;

export const currentEditFile: EditAttempt = (text, oldText, newText) => {
  const result = replaceOnce(text, oldText, newText, 'file');
  return result.ok ? result.text : undefined;
};

export interface Tally {
  cases: number;
  /** At the meant place, the file exactly as meant (its indentation and line ends kept). */
  rightInStyle: number;
  /** At the meant place, in any style. */
  right: number;
  refused: number;
  wrong: number;
  /** The first few wrong-place cases, to read. */
  wrongExamples: NearMissCase[];
}

export type Outcome = 'right in style' | 'right place' | 'refused' | 'wrong place';

/** Every case of the corpus for the seed; `everyNth` keeps one file in n (the unit test's slice). */
export function nearMissCases(seed = NEAR_MISS_SEED, everyNth = 1, files: CorpusFile[] = readCorpus()): NearMissCase[] {
  const random = seededRandom(seed);
  const cases: NearMissCase[] = [];
  let id = 0;
  files.forEach((file, index) => {
    if (index % everyNth !== 0) return;
    for (let round = 0; round < ROUNDS; round++) {
      for (const category of categories) {
        const made = makeCase({ category, file, random, id: id++ });
        if (made) cases.push(made);
      }
    }
  });
  return cases;
}

/** Where the attempt's result changed the file, against where the case meant. */
export function judge(nearMiss: NearMissCase, result: string | undefined): Outcome {
  if (result === undefined) return 'refused';
  if (result === nearMiss.expected) return 'right in style';
  const { text } = nearMiss;
  let prefix = 0;
  while (prefix < text.length && prefix < result.length && text[prefix] === result[prefix]) prefix++;
  let suffix = 0;
  while (suffix < text.length - prefix && suffix < result.length - prefix && text[text.length - 1 - suffix] === result[result.length - 1 - suffix]) suffix++;
  return prefix >= nearMiss.start && text.length - suffix <= nearMiss.end ? 'right place' : 'wrong place';
}

export function tallyCases(cases: readonly NearMissCase[], attempt: EditAttempt): Map<Category, Tally> {
  const tallies = new Map<Category, Tally>(
    categories.map((category) => [category, { cases: 0, rightInStyle: 0, right: 0, refused: 0, wrong: 0, wrongExamples: [] }]),
  );
  for (const nearMiss of cases) {
    const tally = tallies.get(nearMiss.category)!;
    const outcome = judge(nearMiss, attempt(nearMiss.text, nearMiss.oldText, nearMiss.newText));
    tally.cases++;
    if (outcome === 'right in style') tally.rightInStyle++;
    if (outcome === 'right in style' || outcome === 'right place') tally.right++;
    if (outcome === 'refused') tally.refused++;
    if (outcome === 'wrong place') {
      tally.wrong++;
      if (tally.wrongExamples.length < 3) tally.wrongExamples.push(nearMiss);
    }
  }
  return tallies;
}

const controls: readonly Category[] = ['exact (control)', 'CRLF file, LF text (control)'];
const adversarial: Category = 'adversarial: same lines at another indentation';

/** The near-miss categories together: neither the controls nor the adversarial cases (those are judged on wrong places alone). */
export function nearMissTotal(tallies: Map<Category, Tally>): Tally {
  const total: Tally = { cases: 0, rightInStyle: 0, right: 0, refused: 0, wrong: 0, wrongExamples: [] };
  for (const [category, tally] of tallies) {
    if (controls.includes(category) || category === adversarial) continue;
    total.cases += tally.cases;
    total.rightInStyle += tally.rightInStyle;
    total.right += tally.right;
    total.refused += tally.refused;
    total.wrong += tally.wrong;
  }
  return total;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '   -  ' : `${((100 * part) / whole).toFixed(1).padStart(5)} %`;
}

function row(name: string, t: Tally): string {
  return (
    `  ${name.padEnd(48)} ${String(t.cases).padStart(5)}   ${String(t.right).padStart(5)} ${percent(t.right, t.cases)}   ` +
    `${String(t.rightInStyle).padStart(5)} ${percent(t.rightInStyle, t.cases)}   ${String(t.refused).padStart(5)}   ${String(t.wrong).padStart(5)}`
  );
}

/** `npm run bench -- edits`: the table for the current edit_file. */
export function measureNearMiss(attempt: EditAttempt = currentEditFile, label = 'edit_file'): Map<Category, Tally> {
  const files = readCorpus();
  const cases = nearMissCases(NEAR_MISS_SEED, 1, files);
  const tallies = tallyCases(cases, attempt);
  const repos = new Set(files.map((file) => file.name.split('/')[0])).size;
  console.log(`\nNear-miss edits (${label}): ${cases.length} cases from ${files.length} real files of ${repos} public repositories, seed ${NEAR_MISS_SEED}`);
  console.log(`  ${'category'.padEnd(48)} ${'cases'.padStart(5)}   ${'right place'.padEnd(13)}   ${"file's style".padEnd(13)}   refused   wrong`);
  for (const [category, tally] of tallies) console.log(row(category, tally));
  const total = nearMissTotal(tallies);
  console.log(row('all near-miss categories (controls, adversarial out)', total));
  console.log('  target: ≥ 95 % of near-miss edits at the right place, 0 at a wrong place in every category');
  for (const tally of tallies.values()) {
    for (const example of tally.wrongExamples)
      console.log(`  wrong place: ${example.category} in ${example.file}: ${JSON.stringify(example.oldText).slice(0, 160)}`);
  }
  return tallies;
}
