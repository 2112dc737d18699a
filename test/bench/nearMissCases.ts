/**
 * Near-miss edit cases made from real files, deterministically from a seed: a
 * block of lines the model means to change, the change as the file's style
 * would have it, and the old and new text as the model sends them, miscopied
 * the way the category says.
 */
import type { CorpusFile } from './nearMissCorpus';
import * as d from './nearMissDistortions';
import type { FileStyle } from './nearMissDistortions';

export const categories = [
  'exact (control)',
  'CRLF file, LF text (control)',
  'trailing whitespace',
  'tabs / spaces',
  'block shifted or dedented',
  'first line unindented',
  'typographic punctuation',
  'typographic punctuation, inserted line with quotes',
  'line-number prefixes',
  'newlines sent as \\n',
  'adversarial: same lines at another indentation',
] as const;
export type Category = (typeof categories)[number];

export interface NearMissCase {
  category: Category;
  file: string;
  /** The file as this case has it (made CRLF, or with a decoy block, for some categories). */
  text: string;
  oldText: string;
  newText: string;
  /** The file after the edit the model meant, in the file's own style. */
  expected: string;
  /** Where the meant block is in `text`: an edit elsewhere is at a wrong place. */
  start: number;
  end: number;
}

interface Lines {
  lines: string[];
  eol: string;
}

function linesOf(text: string): Lines {
  return { lines: text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)), eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

function styleOf(lines: string[]): FileStyle {
  const tabs = lines.filter((line) => line.startsWith('\t')).length;
  const spaces = lines.filter((line) => line.startsWith(' ')).length;
  if (tabs > spaces) return { usesTabs: true, unit: '\t' };
  const steps = new Map<number, number>();
  for (let i = 1; i < lines.length; i++) {
    const step = d.leading(lines[i]).length - d.leading(lines[i - 1]).length;
    if (step > 0 && lines[i].trim() !== '') steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  const unit = [2, 4, 8].sort((a, b) => (steps.get(b) ?? 0) - (steps.get(a) ?? 0))[0];
  return { usesTabs: false, unit: ' '.repeat(unit) };
}

interface Block {
  at: number;
  lines: string[];
}

type Requirement = (block: string[], style: FileStyle) => boolean;

const indented = (block: string[]) => block.filter((line) => line.trim() !== '').every((line) => /^[ \t]/.test(line));
const pureIndent = (style: FileStyle) => (block: string[]) =>
  block.every((line) => !/^[ \t]*[\t ]/.test(line) || (style.usesTabs ? /^\t*\S/ : /^ *\S/).test(line));

/** A block of 2–6 lines, unique in the file, that meets the category's requirement; undefined after 60 tries. */
function pickBlock(file: Lines, random: () => number, requirement: Requirement, style: FileStyle): Block | undefined {
  const whole = file.lines.join('\n');
  for (let attempt = 0; attempt < 60; attempt++) {
    const length = 2 + Math.floor(random() * 5);
    const at = Math.floor(random() * Math.max(1, file.lines.length - length));
    const lines = file.lines.slice(at, at + length);
    if (lines.length < 2 || lines.filter((line) => line.trim().length > 2).length < 2 || lines.some((line) => line.length > 200)) continue;
    const text = lines.join('\n');
    if (whole.indexOf(text) !== whole.lastIndexOf(text) || !requirement(lines, style)) continue;
    return { at, lines };
  }
  return undefined;
}

/**
 * The change the model means: one line changed, and a line added after it (one level deeper half the time).
 * The added line is `added_line_<id>`, or the plan's own (code with straight quotes, which must stay straight).
 */
function meantChange(block: string[], style: FileStyle, random: () => number, id: number, addedLine = `added_line_${id}`): string[] {
  const candidates = block.map((line, i) => i).filter((i) => block[i].trim().length > 2);
  const changed = candidates[Math.floor(random() * candidates.length)];
  const indent = d.leading(block[changed]) + (random() < 0.5 ? style.unit : '');
  return [...block.slice(0, changed), `${block[changed]} nearmiss${id}`, `${indent}${addedLine}`, ...block.slice(changed + 1)];
}

interface CaseInput {
  category: Category;
  file: CorpusFile;
  random: () => number;
  id: number;
}

/** One case of the category made from the file, or undefined when the file has no block the category applies to. */
export function makeCase(input: CaseInput): NearMissCase | undefined {
  const { category, random } = input;
  let file = linesOf(input.file.text);
  if (category === 'CRLF file, LF text (control)') file = { ...file, eol: '\r\n' };
  const style = styleOf(file.lines);
  const plan = plans[category];
  const block = pickBlock(file, random, plan.requirement, style);
  if (!block) return undefined;
  const prepared = plan.prepareFile?.(file, block, style, random) ?? { file, block };
  const meant = meantChange(prepared.block.lines, style, random, input.id, plan.addedLine?.(input.id));
  const sent = plan.distort(prepared.block, meant, style, random);
  const { lines, eol } = prepared.file;
  const before = lines.slice(0, prepared.block.at).join(eol) + (prepared.block.at > 0 ? eol : '');
  const blockText = prepared.block.lines.join(eol);
  const after = lines.slice(prepared.block.at + prepared.block.lines.length).join(eol);
  const withNewline = random() < 0.3 && prepared.block.at + prepared.block.lines.length < lines.length;
  const tail = withNewline ? after : eol + after;
  const sentEnd = withNewline ? '\n' : '';
  return {
    category,
    file: input.file.name,
    text: before + blockText + (withNewline ? eol : '') + tail,
    oldText: sent.oldText + (plan.escapes ? d.escapedOnce(sentEnd) : sentEnd),
    newText: sent.newText + (plan.escapes ? d.escapedOnce(sentEnd) : sentEnd),
    expected: before + meant.join(eol) + (withNewline ? eol : '') + tail,
    start: before.length,
    end: before.length + blockText.length + (withNewline ? eol.length : 0),
  };
}

interface Plan {
  requirement: Requirement;
  /** Changes the file for the case (trailing whitespace added, a decoy block inserted). */
  prepareFile?: (file: Lines, block: Block, style: FileStyle, random: () => number) => { file: Lines; block: Block };
  distort: (block: Block, meant: string[], style: FileStyle, random: () => number) => { oldText: string; newText: string };
  /** The sent text is JSON-escaped, line ends included. */
  escapes?: boolean;
  /** The line the model adds, when not `added_line_<id>`. */
  addedLine?: (id: number) => string;
}

const anyBlock: Requirement = () => true;
const both = (block: Block, meant: string[], change: (lines: string[]) => string[]) => ({
  oldText: change(block.lines).join('\n'),
  newText: change(meant).join('\n'),
});

const plans: Record<Category, Plan> = {
  'exact (control)': { requirement: anyBlock, distort: (block, meant) => both(block, meant, (lines) => lines) },
  'CRLF file, LF text (control)': { requirement: anyBlock, distort: (block, meant) => both(block, meant, (lines) => lines) },
  'trailing whitespace': {
    requirement: anyBlock,
    prepareFile: (file, block, _style, random) => {
      if (block.lines.some((line) => /[ \t]$/.test(line))) return { file, block };
      // The file has trailing blanks the model's copy lost: added to a line the edit keeps.
      const spaced = block.lines.map((line, i) =>
        i === 0 || (i === block.lines.length - 1 && random() < 0.5) ? `${line}${random() < 0.5 ? '  ' : '\t'}` : line,
      );
      const lines = [...file.lines.slice(0, block.at), ...spaced, ...file.lines.slice(block.at + block.lines.length)];
      return { file: { ...file, lines }, block: { at: block.at, lines: spaced } };
    },
    distort: (block, meant) => both(block, meant, (lines) => lines.map((line) => line.trimEnd())),
  },
  'tabs / spaces': {
    requirement: (block, style) => indented(block) && pureIndent(style)(block),
    distort: (block, meant, style, random) => {
      const perTab = random() < 0.7 ? 4 : 2;
      return both(block, meant, (lines) => d.swapTabsAndSpaces(lines, style, perTab));
    },
  },
  'block shifted or dedented': {
    requirement: anyBlock,
    distort: (block, meant, style, random) => {
      const inward = indented(block.lines) && random() < 0.6;
      return both(block, meant, (lines) => (inward ? d.dedent(lines) : d.indentMore(lines, style.usesTabs ? '\t' : '  ')));
    },
  },
  'first line unindented': {
    requirement: (block) => /^[ \t]+\S/.test(block[0]),
    distort: (block, meant) => both(block, meant, d.unindentFirst),
  },
  'typographic punctuation': {
    requirement: (block) => d.hasTypographic(block) || d.hasPlainPunctuation(block),
    distort: (block, meant) => both(block, meant, d.hasTypographic(block.lines) ? d.plainPunctuation : d.curlyPunctuation),
  },
  // The file's lines have curly quotes the model sent straight, and the line it adds is code whose straight
  // quotes are meant: the file's punctuation goes back on the kept lines only (`"added": true,` stays as written).
  'typographic punctuation, inserted line with quotes': {
    requirement: (block) => block.some((line) => /[\u2018\u2019\u201C\u201D"']/.test(line)),
    // Few real files have curly quotes: a block with straight ones gets them, as a file of prose would have them.
    prepareFile: (file, block) => {
      if (block.lines.some((line) => /[\u2018\u2019\u201C\u201D]/.test(line))) return { file, block };
      const curled = d.curlyQuotes(block.lines);
      const lines = [...file.lines.slice(0, block.at), ...curled, ...file.lines.slice(block.at + block.lines.length)];
      return { file: { ...file, lines }, block: { at: block.at, lines: curled } };
    },
    addedLine: (id) => `"added_${id}": true, 'kept': "straight"`,
    distort: (block, meant) => both(block, meant, d.plainPunctuation),
  },
  'line-number prefixes': {
    requirement: anyBlock,
    distort: (block, meant, _style, random) => {
      const format = Math.floor(random() * 4);
      const numbered = random() < 0.5;
      return {
        oldText: d.withLineNumbers(block.lines, block.at + 1, format).join('\n'),
        newText: (numbered ? d.withLineNumbers(meant, block.at + 1, format) : meant).join('\n'),
      };
    },
  },
  'newlines sent as \\n': {
    requirement: anyBlock,
    escapes: true,
    distort: (block, meant) => ({ oldText: d.escapedOnce(block.lines.join('\n')), newText: d.escapedOnce(meant.join('\n')) }),
  },
  'adversarial: same lines at another indentation': {
    requirement: (block, style) => indented(block) && pureIndent(style)(block),
    prepareFile: (file, block, style, random) => {
      // A decoy: the same lines one level deeper, elsewhere in the file.
      const decoy = d.indentMore(block.lines, style.unit);
      const where =
        random() < 0.5
          ? Math.floor(random() * block.at)
          : block.at + block.lines.length + Math.floor(random() * (file.lines.length - block.at - block.lines.length));
      const lines = [...file.lines.slice(0, where), ...decoy, ...file.lines.slice(where)];
      return { file: { ...file, lines }, block: { at: where <= block.at ? block.at + decoy.length : block.at, lines: block.lines } };
    },
    distort: (block, meant, style, random) => {
      const way = Math.floor(random() * 4);
      const change = [
        d.dedent,
        (lines: string[]) => d.swapTabsAndSpaces(lines, style, 4),
        d.unindentFirst,
        (lines: string[]) => lines.map((line) => line.trimEnd()),
      ][way];
      return both(block, meant, change);
    },
  },
};
