/**
 * A small glob dialect for workspace paths (posix, `/`-separated, relative to
 * the root): `**` (any number of folders), `*`, `?`, `{a,b}` and character
 * classes `[abc]`, `[!a-z]`. `*` also matches a leading dot, as in .gitignore,
 * so `*.key` protects `.secret.key` too.
 */

export interface GlobOptions {
  /** Protection checks ignore case: `.ENV` is the same file as `.env` on macOS and Windows. */
  ignoreCase?: boolean;
}

/** The RegExp matching a whole path against `pattern`. */
export function globToRegExp(pattern: string, options: GlobOptions = {}): RegExp {
  return new RegExp(`^${globBody(pattern)}$`, options.ignoreCase ? 'i' : '');
}

/**
 * Whether `path` matches `pattern`. A pattern without `/` matches the last
 * segment at any depth (`*.pem` matches `certs/a.pem`); one with `/` matches
 * the path from the root (a leading `/` or `./` is dropped).
 */
export function matchesGlob(path: string, pattern: string, options: GlobOptions = {}): boolean {
  const anchored = pattern.replace(/^\.?\//, '');
  const subject = pattern.includes('/') ? path : path.slice(path.lastIndexOf('/') + 1);
  return globToRegExp(anchored, options).test(subject);
}

function globBody(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '/' && pattern.slice(i) === '/**') {
      // `a/**` also matches `a` itself, so protecting `.git/**` covers the folder.
      out += '(?:/.*)?';
      i += 3;
    } else if (c === '*' && pattern[i + 1] === '*') {
      const [regex, consumed] = globstar(pattern, i);
      out += regex;
      i += consumed;
    } else if (c === '*') {
      out += '[^/]*';
      i += 1;
    } else if (c === '?') {
      out += '[^/]';
      i += 1;
    } else if (c === '[') {
      const [regex, consumed] = characterClass(pattern, i);
      out += regex;
      i += consumed;
    } else if (c === '{') {
      const [regex, consumed] = alternatives(pattern, i);
      out += regex;
      i += consumed;
    } else if (c === '\\' && i + 1 < pattern.length) {
      out += escapeRegExp(pattern[i + 1]);
      i += 2;
    } else {
      out += escapeRegExp(c);
      i += 1;
    }
  }
  return out;
}

/** `**` as a whole segment spans folders (zero or more); inside a segment it is just `*`. */
function globstar(pattern: string, at: number): [string, number] {
  const startsSegment = at === 0 || pattern[at - 1] === '/';
  const next = pattern[at + 2];
  if (startsSegment && next === '/') return ['(?:[^/]*/)*', 3];
  if (startsSegment && next === undefined) return ['.*', 2];
  return ['[^/]*', 2];
}

function characterClass(pattern: string, at: number): [string, number] {
  const close = pattern.indexOf(']', at + 2);
  if (close < 0) return ['\\[', 1];
  let body = pattern.slice(at + 1, close);
  const negated = body.startsWith('!') || body.startsWith('^');
  if (negated) body = body.slice(1);
  const escaped = body.replace(/[\\\]^]/g, (ch) => `\\${ch}`);
  // A class never matches `/`, like `*` and `?`.
  return [negated ? `[^/${escaped}]` : `(?!/)[${escaped}]`, close - at + 1];
}

function alternatives(pattern: string, at: number): [string, number] {
  let depth = 0;
  const parts: string[] = [];
  let start = at + 1;
  for (let i = at; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i += 1;
    else if (c === '{') depth += 1;
    else if (c === ',' && depth === 1) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    } else if (c === '}' && --depth === 0) {
      parts.push(pattern.slice(start, i));
      return [`(?:${parts.map(globBody).join('|')})`, i - at + 1];
    }
  }
  return ['\\{', 1];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
