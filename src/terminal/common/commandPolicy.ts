/**
 * Finds a denied command (`gateway.agent.deniedCommands`) anywhere in a shell
 * command line, so that the `auto` approval policy still asks for
 * `make && rm -rf build` or `echo $(curl …)`. It reads the line the way a
 * POSIX shell splits it (quotes, escapes, operators, substitutions) without
 * running anything, and errs on the side of asking: a command whose name is
 * computed at run time (`$CMD …`), or a shell reading its script from stdin
 * (`… | sh`), counts as denied, since nobody can tell what it runs.
 */
import { maxNesting, parseShell, TooDeeplyNested, type SimpleCommand, type Word } from './shellParser';
import { afterOptions, envSplitScript, isShell, isWrapper, shellReadsStdin, shellScript } from './commandWrappers';

/**
 * The first simple command in `line` that a pattern denies (its source text,
 * for the approval prompt), or undefined. A pattern like `git push` or `rm -rf`
 * matches a command named by its first word (`/bin/rm` counts as `rm`, after
 * `FOO=1` assignments) whose later words include the pattern's other words in
 * order, and whose options include the pattern's option letters in any
 * grouping (`rm -r -f`, `rm -fr`) or spelled as GNU long options
 * (`rm --recursive --force`). Commands are found when chained (`&&`, `||`,
 * `;`, `|`, `&`, newlines), nested (`$(…)`, backticks, `( … )`,
 * `bash -c '…'`, `eval`, `find -exec`) or behind wrappers (`sudo`, `env`,
 * `xargs`, `timeout` …). Text inside quotes is an argument, never a command.
 */
export function findDeniedCommand(line: string, patterns: readonly string[]): string | undefined {
  const denied = patterns.map(parsePattern).filter((pattern) => pattern !== undefined);
  if (denied.length === 0) return undefined;
  try {
    return deniedInScript(line, denied, 0);
  } catch (error) {
    if (error instanceof TooDeeplyNested) return line.trim();
    throw error;
  }
}

function deniedInScript(script: string, patterns: DeniedPattern[], depth: number): string | undefined {
  if (depth > maxNesting) throw new TooDeeplyNested();
  for (const command of parseShell(script, depth)) {
    const found = deniedInCommand(command, patterns, depth);
    if (found !== undefined) return found;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Patterns

interface DeniedPattern {
  name: string;
  /** Other plain words (`push` in `git push`), in order. */
  words: string[];
  /** Option words (`-rf`, `--force`). */
  options: string[];
}

function parsePattern(source: string): DeniedPattern | undefined {
  const [first, ...rest] = source
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (first === undefined) return undefined;
  return { name: baseName(first), words: rest.filter((word) => !word.startsWith('-')), options: rest.filter((word) => word.startsWith('-')) };
}

function matchesPattern(pattern: DeniedPattern, name: string, args: Word[]): boolean {
  if (name !== pattern.name) return false;
  const values = args.map((arg) => arg.text);
  let next = 0;
  for (const value of values) if (value === pattern.words[next]) next++;
  if (next < pattern.words.length) return false;
  return pattern.options.every((option) => hasOption(name, values, option));
}

/**
 * The short option letters of GNU long options whose letter is not simply the
 * long name's first letter; any other long option counts as its first letter
 * (`--recursive` as `-r`, `--force` as `-f`), which errs towards asking.
 */
const longOptionLetters: Record<string, Record<string, string>> = {
  rm: { recursive: 'r', force: 'f' },
  chmod: { recursive: 'r', silent: 'f', quiet: 'f' },
  chown: { recursive: 'r', silent: 'f', quiet: 'f' },
  chgrp: { recursive: 'r', silent: 'f', quiet: 'f' },
  git: { force: 'f', 'dry-run': 'n' },
};

function letterOf(command: string, longName: string): string {
  return longOptionLetters[command]?.[longName] ?? longName[0];
}

function hasOption(command: string, values: string[], option: string): boolean {
  const longNames = values.filter((value) => /^--[^-=]/.test(value)).map((value) => value.slice(2).split('=')[0].toLowerCase());
  if (option.startsWith('--')) {
    // GNU and git take any unambiguous abbreviation (`--har` for `--hard`); its short form counts too (`git push -f`).
    const wanted = option.slice(2).toLowerCase();
    const known = longOptionLetters[command]?.[wanted];
    return longNames.some((name) => wanted.startsWith(name)) || (known !== undefined && shortLetters(values).includes(known));
  }
  // Short options group freely (`-rf`, `-fr`, `-r -f`); case is ignored so `rm -Rf` counts as `rm -rf`.
  const present = shortLetters(values) + longNames.map((name) => letterOf(command, name)).join('');
  return [...option.slice(1).toLowerCase()].every((letter) => present.includes(letter));
}

function shortLetters(values: string[]): string {
  return values
    .filter((value) => /^-[^-]/.test(value))
    .map((value) => value.slice(1))
    .join('')
    .toLowerCase();
}

// ---------------------------------------------------------------------------
// Simple commands: wrappers, nested shells, assignments

function deniedInCommand(command: SimpleCommand, patterns: DeniedPattern[], depth: number): string | undefined {
  const words = withoutAssignments(command);
  const [first, ...args] = words;
  if (first === undefined) return undefined;
  const source = words.map((word) => word.raw).join(' ');
  if (first.dynamic) return source;
  const name = baseName(first.text);
  if (patterns.some((pattern) => matchesPattern(pattern, name, args))) return source;
  if (name === 'env') {
    const split = envSplitScript(args);
    if (split !== undefined) return deniedInScript(split, patterns, depth + 1);
  }
  if (isWrapper(name)) return deniedInCommand(afterOptions(name, args), patterns, depth + 1);
  if (isShell(name)) {
    const script = shellScript(args);
    if (script !== undefined) return deniedInScript(script, patterns, depth + 1);
    return shellReadsStdin(args) ? source : undefined;
  }
  if (name === 'eval') return deniedInScript(args.map((arg) => arg.text).join(' '), patterns, depth + 1);
  if (name === 'find') return deniedInFindActions(args, patterns, depth);
  return undefined;
}

/** `FOO=1 BAR=2 cmd` runs `cmd`. */
function withoutAssignments(words: Word[]): Word[] {
  let start = 0;
  while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[start].raw)) start++;
  return words.slice(start);
}

/** `find … -exec rm -rf {} ;` runs `rm -rf {}` for every file found. */
function deniedInFindActions(args: Word[], patterns: DeniedPattern[], depth: number): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i].text)) continue;
    let end = i + 1;
    while (end < args.length && args[end].text !== ';' && args[end].text !== '+') end++;
    const found = deniedInCommand(args.slice(i + 1, end), patterns, depth + 1);
    if (found !== undefined) return found;
    i = end;
  }
  return undefined;
}

function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
