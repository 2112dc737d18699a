/**
 * The ways a model miscopies lines it read, one per bench category, as
 * measured on real models: each takes the lines as the file has them and
 * returns them as the model sends them (old and new text alike).
 */

export interface FileStyle {
  usesTabs: boolean;
  /** One level of indentation as the file writes it: a tab, or 2, 4 or 8 spaces. */
  unit: string;
}

export function leading(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** Tabs ↔ spaces: a tab file sent with 4 (or 2) spaces a tab, a space file sent with a tab a level. */
export function swapTabsAndSpaces(lines: string[], style: FileStyle, spacesPerTab: number): string[] {
  return lines.map((line) => {
    const indent = leading(line);
    if (style.usesTabs) return indent.replace(/\t/g, ' '.repeat(spacesPerTab)) + line.slice(indent.length);
    const width = indent.length;
    const levels = Math.floor(width / style.unit.length);
    return '\t'.repeat(levels) + ' '.repeat(width % style.unit.length) + line.slice(indent.length);
  });
}

/** The block with its common indentation removed, as a model quoting a nested block often sends it. */
export function dedent(lines: string[]): string[] {
  const indents = lines.filter((line) => line.trim() !== '').map(leading);
  let common = indents[0] ?? '';
  for (const indent of indents) while (!indent.startsWith(common)) common = common.slice(0, -1);
  return lines.map((line) => (line.startsWith(common) ? line.slice(common.length) : line));
}

/** The block one level deeper than the file has it. */
export function indentMore(lines: string[], unit: string): string[] {
  return lines.map((line) => (line.trim() === '' ? line : unit + line));
}

export function unindentFirst(lines: string[]): string[] {
  return [lines[0].trimStart(), ...lines.slice(1)];
}

const typographic = /[\u2018\u2019\u201C\u201D\u2013\u2014\u2026\u00A0]/;

export function hasTypographic(lines: string[]): boolean {
  return lines.some((line) => typographic.test(line));
}

/** Typographic punctuation written plain, as a model's tokenizer often does. */
export function plainPunctuation(lines: string[]): string[] {
  return lines.map((line) =>
    line
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201C\u201D]/g, '"')
      .replace(/[\u2013\u2014]/g, '-')
      .replace(/\u2026/g, '...')
      .replace(/\u00A0/g, ' '),
  );
}

/** Plain punctuation made typographic, as a model writing prose often does. */
export function curlyPunctuation(lines: string[]): string[] {
  return lines.map((line) => {
    let quotes = 0;
    return line
      .replace(/"/g, () => (quotes++ % 2 === 0 ? '\u201C' : '\u201D'))
      .replace(/'/g, '\u2019')
      .replace(/ - /g, ' \u2014 ')
      .replace(/\.\.\./g, '\u2026');
  });
}

/** Straight quotes made curly, the rest kept: a file of prose whose quotes an editor curled. */
export function curlyQuotes(lines: string[]): string[] {
  return lines.map((line) => {
    let quotes = 0;
    return line.replace(/"/g, () => (quotes++ % 2 === 0 ? '\u201C' : '\u201D')).replace(/'/g, '\u2019');
  });
}

export function hasPlainPunctuation(lines: string[]): boolean {
  return lines.some((line) => /["']| - |\.\.\./.test(line));
}

const numberFormats: ((n: number) => string)[] = [
  (n) => `${n}: `,
  (n) => `${n}\t`,
  (n) => `${String(n).padStart(5)} | `,
  (n) => `${String(n).padStart(6)}\u2192`,
];

/** Lines as an excerpt numbers them (read_file's `12: ` and the other usual forms), from `first`. */
export function withLineNumbers(lines: string[], first: number, format: number): string[] {
  return lines.map((line, i) => numberFormats[format % numberFormats.length](first + i) + line);
}

/** The text JSON-escaped once more: its newlines arrive as the two characters \n. */
export function escapedOnce(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
