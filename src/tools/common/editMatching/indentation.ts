/**
 * Indentation that differs between what the model sent and the file: spaces for
 * tabs, a block shifted or dedented, a first line without its indentation. What
 * is learnt from the matched lines re-indents the model's new text, so the file
 * keeps its own style.
 */
import { leadingWhitespace } from './textLines';

const tabWidth = 4;
/** How many file columns one column of the model's text stands for, most likely first: 2-space text for a 4-space file is 2. */
const scales = [1, 2, 0.5, 4, 0.25];

/** Turns an indentation as the model wrote it into the file's. */
export interface Reindent {
  (indent: string, isFirstLine: boolean): string;
}

/** Columns an indentation reaches, a tab going to the next multiple of the tab width. */
function width(indent: string): number {
  let column = 0;
  for (let i = 0; i < indent.length; i++) column = indent.charCodeAt(i) === 9 ? column + tabWidth - (column % tabWidth) : column + 1;
  return column;
}

interface Pair {
  sent: string;
  file: string;
}

/**
 * The re-indentation that turns each non-blank sent line's indentation into the
 * matched file line's (the same scale and shift for all; the first line may
 * differ, since a first line copied without its indentation is common), or
 * undefined when the relative indentation of the lines differs: then they are
 * not the same block.
 */
export function learnReindent(sentLines: readonly string[], fileLines: readonly string[], style: IndentStyle): Reindent | undefined {
  const pairs: Pair[] = [];
  for (let i = 0; i < sentLines.length; i++) {
    if (sentLines[i].trim() === '') continue;
    pairs.push({ sent: leadingWhitespace(sentLines[i]), file: leadingWhitespace(fileLines[i]) });
  }
  if (pairs.length === 0) return undefined;
  const firstIsLine0 = sentLines[0].trim() !== '';
  const order = style.likelyScale !== undefined && scales.includes(style.likelyScale) ? [style.likelyScale, ...scales] : scales;
  const withFirst = fit(pairs, order, style.sentStep);
  if (withFirst) return makeReindent({ fit: withFirst, pairs, style, first: undefined });
  if (!firstIsLine0) return undefined;
  const rest = fit(pairs.slice(1), order, style.sentStep);
  if (!rest) return undefined;
  return makeReindent({ fit: rest, pairs: pairs.slice(1), style, first: pairs[0] });
}

/** The file's indentation, and how many of its columns a column of the model's text likely stands for. */
export interface IndentStyle {
  usesTabs: boolean;
  /**
   * The file's indentation step over the sent text's (2-space text for a 4-space
   * file: 2). Lines all at one depth do not show the scale; a line new_text adds
   * one level deeper then still gets one level of the file's.
   */
  likelyScale: number | undefined;
  /** The sent text's indentation step in columns, when its lines show one. */
  sentStep: number | undefined;
}

export function indentStyle(fileLines: readonly string[], sentLines: readonly string[]): IndentStyle {
  const fileUsesTabs = usesTabs(fileLines);
  const fileStep = fileUsesTabs ? tabWidth : indentStep(fileLines);
  const sentStep = indentStep(sentLines);
  return { usesTabs: fileUsesTabs, likelyScale: fileStep !== undefined && sentStep !== undefined ? fileStep / sentStep : undefined, sentStep };
}

/** The indentation step of some lines: a tab's width when they indent with tabs, else their most common increase in spaces (one space more is alignment, a javadoc's " * ", not a level). */
function indentStep(lines: readonly string[]): number | undefined {
  const steps = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = leadingWhitespace(line);
    if (indent.includes('\t')) return tabWidth;
    if (previous !== undefined && indent.length - previous >= 2 && indent.length - previous <= 8)
      steps.set(indent.length - previous, (steps.get(indent.length - previous) ?? 0) + 1);
    previous = indent.length;
  }
  let best: [number, number] | undefined;
  for (const entry of steps) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0];
}

/**
 * How sent columns become file columns. With `keepsAlignment`, the spaces that
 * align a line past its last level (a javadoc's " * ", a tab then a space) are
 * kept as they are and only the levels are scaled.
 */
interface Fit {
  scale: number;
  shift: number;
  keepsAlignment: boolean;
}

/** Spaces past the last indentation level: after the last tab, or past a multiple of the step. */
function alignment(indent: string, step: number | undefined): number {
  const lastTab = indent.lastIndexOf('\t');
  if (lastTab >= 0) return indent.length - lastTab - 1;
  return step === undefined ? 0 : indent.length % step;
}

function fileColumns(indent: string, fit: Fit, step: number | undefined): number {
  const columns = width(indent);
  if (!fit.keepsAlignment) return fit.scale * columns + fit.shift;
  const aligned = alignment(indent, step);
  return fit.scale * (columns - aligned) + aligned + fit.shift;
}

function fit(pairs: readonly Pair[], order: readonly number[], step: number | undefined): Fit | undefined {
  if (pairs.length === 0) return { scale: 1, shift: 0, keepsAlignment: false };
  for (const scale of order) {
    for (const keepsAlignment of scale === 1 ? [false] : [false, true]) {
      const unshifted = { scale, shift: 0, keepsAlignment };
      const shift = width(pairs[0].file) - fileColumns(pairs[0].sent, unshifted, step);
      if (pairs.every((pair) => width(pair.file) - fileColumns(pair.sent, unshifted, step) === shift)) return { ...unshifted, shift };
    }
  }
  return undefined;
}

interface ReindentParts {
  fit: Fit;
  pairs: readonly Pair[];
  style: IndentStyle;
  /** Set when the first line's indentation follows its own rule. */
  first: Pair | undefined;
}

function makeReindent(parts: ReindentParts): Reindent {
  // An indentation the matched lines show is taken as the file has it (a tab-and-spaces mix included).
  const known = new Map<string, string>();
  for (const pair of parts.pairs) if (!known.has(pair.sent)) known.set(pair.sent, pair.file);
  const { fit, style } = parts;
  const render = (columns: number) => indentOf(Math.max(0, Math.round(columns)), style.usesTabs);
  return (indent, isFirstLine) => {
    const first = parts.first;
    if (isFirstLine && first) {
      return indent === first.sent ? first.file : render(width(first.file) + fit.scale * (width(indent) - width(first.sent)));
    }
    return known.get(indent) ?? render(fileColumns(indent, fit, style.sentStep));
  };
}

function indentOf(columns: number, useTabs: boolean): string {
  return useTabs ? '\t'.repeat(Math.floor(columns / tabWidth)) + ' '.repeat(columns % tabWidth) : ' '.repeat(columns);
}

/** Whether the file indents with tabs: more of its indented lines start with a tab than with a space. */
export function usesTabs(lines: readonly string[]): boolean {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    const first = line.charCodeAt(0);
    if (first === 9) tabs++;
    else if (first === 32) spaces++;
  }
  return tabs > spaces;
}

/** The new text's lines re-indented; blank lines stay empty-or-as-sent. */
export function reindentLines(lines: readonly string[], reindent: Reindent, firstIsFirstOfPiece: boolean): string[] {
  return lines.map((line, i) => {
    if (line.trim() === '') return line;
    const indent = leadingWhitespace(line);
    return reindent(indent, firstIsFirstOfPiece && i === 0) + line.slice(indent.length);
  });
}
