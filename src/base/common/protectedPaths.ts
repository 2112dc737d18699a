/**
 * The protected files (`gateway.agent.protectedFiles`): which glob of the list a workspace path falls under.
 * One place for the file tools (which refuse them) and the sandbox (which covers them); compiled once per list.
 */
import { compileGlob } from './glob';
import { yieldToHost } from './hostTurn';

/**
 * The protected-file pattern `path` falls under, if any. A path inside a
 * protected folder is protected too (`.env.d/x` under `.env*`).
 */
export function protectingPattern(path: string, patterns: readonly string[]): string | undefined {
  if (path === '.') return undefined;
  const matchers = protectionMatchers(patterns);
  let end = path.indexOf('/');
  for (;;) {
    const prefix = end < 0 ? path : path.slice(0, end);
    const matched = matchers.find(({ matches }) => matches(prefix));
    if (matched !== undefined) return matched.glob;
    if (end < 0) return undefined;
    end = path.indexOf('/', end + 1);
  }
}

/**
 * The protected-file pattern `path` itself matches, its folders not looked at: for a walk that covers a
 * protected folder whole and so never lists inside one (each folder was checked as the walk came to it).
 */
export function protectingPatternOfEntry(path: string, patterns: readonly string[]): string | undefined {
  return protectionMatchers(patterns).find(({ matches }) => matches(path))?.glob;
}

/** A protected glob and its compiled test. */
export interface ProtectionMatcher {
  glob: string;
  matches: (path: string) => boolean;
}

/**
 * Each list of protected globs compiled once (the setting's value: the same array until the setting changes),
 * glob by glob: a walk checks every entry against the same list, and prepareProtections compiles it ahead.
 */
const compiledProtections = new WeakMap<readonly string[], ProtectionMatcher[]>();

/** The list's compiled matchers, in its order; what prepareProtections has not compiled yet is compiled now. */
export function protectionMatchers(patterns: readonly string[]): readonly ProtectionMatcher[] {
  const matchers = startedMatchers(patterns);
  while (matchers.length < patterns.length) matchers.push(protectionMatcher(patterns[matchers.length]));
  return matchers;
}

/** Whether every glob of the list is compiled already (a check against it compiles nothing). */
export function protectionsReady(patterns: readonly string[]): boolean {
  return (compiledProtections.get(patterns)?.length ?? 0) >= patterns.length;
}

/**
 * Compiles the list ahead of its first check, one glob per turn of the event loop: compiled all at
 * once at a session's first path check, the 23 default globs were up to ~10 ms of one synchronous
 * stretch, most of it the first glob (V8 compiling picomatch's parser on first use, 2–8 ms; each
 * other ~0.1 ms, ~25 µs once warm). A check meanwhile compiles the rest at once, as before.
 */
export async function prepareProtections(patterns: readonly string[], signal: AbortSignal): Promise<void> {
  const matchers = startedMatchers(patterns);
  while (matchers.length < patterns.length && !signal.aborted) {
    await yieldToHost();
    if (matchers.length < patterns.length) matchers.push(protectionMatcher(patterns[matchers.length]));
  }
}

function startedMatchers(patterns: readonly string[]): ProtectionMatcher[] {
  let matchers = compiledProtections.get(patterns);
  if (matchers === undefined) {
    matchers = [];
    compiledProtections.set(patterns, matchers);
  }
  return matchers;
}

function protectionMatcher(glob: string): ProtectionMatcher {
  const compiled = compileGlob(glob, { ignoreCase: true });
  // A glob that cannot be compiled matches nothing, as in matchesGlob.
  return { glob, matches: compiled.ok ? compiled.matches : () => false };
}
