/**
 * The parts of the shared Python project files that task runners read their tasks from (taskRunners.ts):
 * pyproject.toml's `[tool.pdm.*]`, `[tool.poe.*]`, `[tool.hatch.*]`, `[tool.tox]`, `[tool.rye.*]`, `[tool.taskipy.*]`,
 * and setup.cfg's `[tox:tox]` / `[testenv…]`. Read rather than the whole file so that a hook running pdm does not hold
 * every file pyproject.toml's other tables name (its readme, its package folders); no TOML parser is in the product,
 * so the tables are found by a scanner that knows TOML's strings, comments and brackets (a `[x]` line inside a
 * multi-line string or array is no table header), one pass over the text.
 */

/** The tables whose values the task runners read. */
const RUNNER_TABLES = /^tool\.(?:pdm|poe|hatch|tox|rye|taskipy)(?:\.|$)/;

/**
 * The lines of pyproject.toml's runner tables (and of `[tool]` and the top table, where dotted keys can spell them),
 * one a line; a `module:function` value (pdm's `call`, poe's `script`) also as `python -m module`.
 */
export function pyprojectTaskSections(text: string): string {
  const kept: string[] = [];
  let keep = true;
  let start = 0;
  forEachHeader(text, (header, at) => {
    if (keep) kept.push(text.slice(start, at));
    const key = header.replace(/["'\s]/g, '');
    keep = key === 'tool' || RUNNER_TABLES.test(key);
    start = at;
  });
  if (keep) kept.push(text.slice(start));
  const sections = kept.join('\n');
  const modules = [...sections.matchAll(/["']([A-Za-z_][A-Za-z0-9_.]{0,200}):[A-Za-z_][A-Za-z0-9_]{0,200}/g)].map((match) => `python -m ${match[1]}`);
  return [sections, ...modules].join('\n');
}

/**
 * Calls `found` with each table header's key (`tool.pdm.scripts`, `[[x]]`'s `x`) and the offset its line starts at:
 * a `[` that opens a line outside any string, comment, array or inline table.
 */
function forEachHeader(text: string, found: (header: string, at: number) => void): void {
  let depth = 0;
  let lineStart = true;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === '\n') {
      lineStart = true;
      index++;
      continue;
    }
    if (lineStart && (char === ' ' || char === '\t' || char === '\r')) {
      index++;
      continue;
    }
    if (lineStart && depth === 0 && char === '[') {
      const end = text.indexOf('\n', index);
      const line = text.slice(index, end < 0 ? text.length : end);
      const header = /^\[\[?([^\]]*)\]/.exec(line);
      found(header ? header[1] : '', text.lastIndexOf('\n', index) + 1);
      index = end < 0 ? text.length : end;
      continue;
    }
    lineStart = false;
    if (char === '#') {
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end;
    } else if (char === '"' || char === "'") {
      index = afterString(text, index);
    } else {
      if (char === '[' || char === '{') depth++;
      else if ((char === ']' || char === '}') && depth > 0) depth--;
      index++;
    }
  }
}

/** The offset after the TOML string that opens at `index` (basic or literal, one line or three quotes). */
function afterString(text: string, index: number): number {
  const quote = text[index];
  if (text.startsWith(quote.repeat(3), index)) {
    let at = index + 3;
    for (;;) {
      const end = text.indexOf(quote.repeat(3), at);
      if (end < 0) return text.length;
      // A backslash escapes the quote in a basic string; up to two more quotes may close it (`""""`).
      if (quote === '"' && isEscaped(text, end)) {
        at = end + 1;
        continue;
      }
      let close = end + 3;
      while (text[close] === quote && close < end + 5) close++;
      return close;
    }
  }
  let at = index + 1;
  while (at < text.length && text[at] !== quote && text[at] !== '\n') at += quote === '"' && text[at] === '\\' ? 2 : 1;
  return at + 1;
}

function isEscaped(text: string, index: number): boolean {
  let slashes = 0;
  for (let at = index - 1; at >= 0 && text[at] === '\\'; at--) slashes++;
  return slashes % 2 === 1;
}

/** setup.cfg's sections tox reads (`[tox:tox]`, `[testenv]`, `[testenv:lint]`), whole; a line that opens with `[` at the margin is a header to configparser. */
export function setupCfgToxSections(text: string): string {
  const kept: string[] = [];
  let keep = false;
  for (const line of text.split('\n')) {
    const header = /^\[([^\]]*)\]/.exec(line);
    if (header) keep = /^\s*(?:tox:|testenv)/.test(header[1]);
    if (keep) kept.push(line);
  }
  return kept.join('\n');
}
