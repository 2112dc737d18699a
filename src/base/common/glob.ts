/**
 * Globs for workspace paths (posix, `/`-separated, relative to the root), read
 * by picomatch: `**`, `*`, `?`, `{a,b}`, character classes. `*` also matches a
 * leading dot, as in .gitignore, so `*.key` protects `.secret.key` too.
 *
 * Globs come from the model (list_files, search_text) and from workspace
 * settings, so the regular expression picomatch builds runs on re2js, whose
 * time is linear in the path: `*a*a*a*a*a*a*a*a*a*a*b` on JavaScript's
 * backtracking engine takes seconds on a 30-character name. picomatch's only
 * lookarounds keep `.` and `..` segments and empty segments from matching;
 * workspace paths are normalized and never have either, so they are dropped.
 */
import type picomatchModule from 'picomatch';
import { re2 } from './re2';

let loaded: typeof picomatchModule | undefined;
/**
 * picomatch, loaded at the first glob rather than with the extension (about 18 KB minified): the production build
 * keeps it in a file beside the bundle (dist/picomatch.js, see esbuild.mjs), as re2js.
 */
function picomatch(): typeof picomatchModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  loaded ??= require('picomatch') as typeof picomatchModule;
  return loaded;
}

export interface GlobOptions {
  /** Protection checks ignore case: `.ENV` is the same file as `.env` on macOS and Windows. */
  ignoreCase?: boolean;
}

/** A compiled glob, or why it cannot be used. */
export type CompiledGlob = { ok: true; matches: (path: string) => boolean } | { ok: false; reason: string };

/** Longer globs are refused: nobody writes one, and each is compiled. */
export const globMaxLength = 1000;

const lookaroundsForDotSegments = [/\(\?!\(\?:\^\|\\\/\)\\\.\{1,2\}\(\?:\\\/\|\$\)\)/g, /\(\?!\\\.\{1,2\}\(\?:\\\/\|\$\)\)/g, /\(\?=\.\)/g];

/** The compiled globs, by pattern and case; bounded so that a stream of new globs cannot grow it without end. */
const cache = new Map<string, CompiledGlob>();
const cacheLimit = 500;

/**
 * `pattern` compiled. A pattern without `/` matches the last segment at any
 * depth (`*.pem` matches `certs/a.pem`); one with `/` matches the path from
 * the root (a leading `/` or `./` is dropped). `a/**` also matches `a` itself.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): CompiledGlob {
  const key = `${options.ignoreCase ? 'i' : 's'}:${pattern}`;
  const known = cache.get(key);
  if (known) return known;
  const compiled = compile(pattern, options);
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/** Whether `path` matches `pattern`; a glob that cannot be compiled matches nothing. */
export function matchesGlob(path: string, pattern: string, options: GlobOptions = {}): boolean {
  const compiled = compileGlob(pattern, options);
  return compiled.ok && compiled.matches(path);
}

function compile(pattern: string, options: GlobOptions): CompiledGlob {
  if (pattern.length > globMaxLength) return { ok: false, reason: `the glob is longer than ${globMaxLength} characters` };
  const anchored = pattern.replace(/^\.?\//, '');
  const wholePath = pattern.includes('/');
  let source: string;
  try {
    // noextglob: `!(a)` and `+(a|b)` need lookarounds that a linear-time engine does not have.
    source = picomatch().makeRe(plainGlob(anchored), { dot: true, noextglob: true, windows: false }).source;
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  for (const lookaround of lookaroundsForDotSegments) source = source.replace(lookaround, '');
  const subject = (path: string) => (wholePath ? path : path.slice(path.lastIndexOf('/') + 1));
  if (wildcardRuns(anchored) <= fastWildcardRuns) {
    // Few wildcards cannot backtrack far (at most quadratic in the path), and V8's engine is several
    // times faster than re2js: protection checks run for every entry of a 50,000-entry walk.
    const fast = new RegExp(source, options.ignoreCase ? 'i' : '');
    return { ok: true, matches: (path) => fast.test(subject(path)) };
  }
  const RE2JS = re2();
  let regex: InstanceType<typeof RE2JS>;
  try {
    regex = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    return { ok: false, reason: `picomatch reads it as a regular expression re2 cannot run (${error instanceof Error ? error.message : String(error)})` };
  }
  return { ok: true, matches: (path) => regex.test(subject(path)) };
}

/** Globs with at most this many runs of `*` (or `**`) go to V8's engine; more to re2js. */
const fastWildcardRuns = 2;

/** How many runs of `*` the glob has (`**` counts once); a brace may multiply them, so it counts as many. */
function wildcardRuns(pattern: string): number {
  return (pattern.match(/\*+/g)?.length ?? 0) + (pattern.includes('{') ? fastWildcardRuns + 1 : 0);
}

/**
 * The glob in the dialect this project documents, spelled for picomatch:
 * parentheses are literal (picomatch would read them as a regex group), `[!a]`
 * is a negated class, and a class never matches the separator.
 */
function plainGlob(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      out += c + pattern[++i];
    } else if (inClass) {
      if (c === ']' && !out.endsWith('[') && !out.endsWith('[^')) inClass = false;
      if (c !== '/') out += c;
    } else if (c === '[' && pattern.indexOf(']', i + 2) > 0) {
      inClass = true;
      out += '[';
      if (pattern[i + 1] === '!' || pattern[i + 1] === '^') {
        out += '^';
        i++;
      }
    } else {
      out += c === '(' || c === ')' ? `\\${c}` : c;
    }
  }
  return out;
}
