/**
 * A Git config file's text as Git's parser (config.c) reads it: `[section "subsection"]` headers, `key = value`
 * lines, values unquoted and unescaped, comments and continuation lines. Pure text: gitStructure.ts reads the files.
 */
/** The `section[.subsection].key = value` pairs of a Git config file, keys lower-cased (subsections keep their case). */
export function configEntries(text: string): { key: string; value: string }[] {
  const entries: { key: string; value: string }[] = [];
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index].trim();
    // A comment ends at its line, a backslash in it too (Git's parser): only a value goes on on the next line.
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    while (continuesOnNextLine(line) && index + 1 < lines.length) line = line.slice(0, -1) + lines[++index];
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header) {
      const [name, ...dotted] = header[1].split('.');
      const sub = header[2] ?? (dotted.length > 0 ? dotted.join('.') : undefined);
      section = sub === undefined ? name.toLowerCase() : `${name.toLowerCase()}.${sub}`;
      // `[section] key = value` on the header's own line.
      const rest = header[3].trim();
      if (rest !== '') pushEntry(entries, section, rest);
      continue;
    }
    if (section !== '') pushEntry(entries, section, line);
  }
  return entries;
}

/** Whether a line's value ends in a backslash outside a comment (a `#` or `;` outside quotes starts one). */
function continuesOnNextLine(line: string): boolean {
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (char === '\\') {
      if (index === line.length - 1) return true;
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) return false;
  }
  return false;
}

function pushEntry(entries: { key: string; value: string }[], section: string, line: string): void {
  const match = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
  if (!match) return;
  const value = match[2] === undefined ? 'true' : configValue(match[2]);
  entries.push({ key: `${section}.${match[1].toLowerCase()}`.replace(/^([^.]+)\./, (whole) => whole.toLowerCase()), value });
}

/**
 * A value as Git reads it: quotes removed, `\"`, `\\`, `\n`, `\t` unescaped, and a `#` or `;` ending it only
 * outside quotes (inside them it is part of the value: an alias's shell code).
 */
export function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  let pendingSpace = '';
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index];
    if (char === '\\' && index + 1 < raw.length) {
      const next = raw[++index];
      value += pendingSpace + (next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '' : next);
      pendingSpace = '';
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) break;
    else if (!quoted && /\s/.test(char)) pendingSpace += value === '' ? '' : char;
    else {
      value += pendingSpace + char;
      pendingSpace = '';
    }
  }
  return value;
}
