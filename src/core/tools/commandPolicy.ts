/**
 * Finds a denied command (`gateway.agent.deniedCommands`) anywhere in a shell
 * command line, so that the `auto` approval policy still asks for
 * `make && rm -rf build` or `echo $(curl …)`. It reads the line the way a
 * POSIX shell splits it (quotes, escapes, operators, substitutions) without
 * running anything, and errs on the side of asking: a command whose name is
 * computed at run time (`$CMD …`) counts as denied, since nobody can tell what
 * it is before it runs.
 */
import { maxNesting, parseShell, TooDeeplyNested, type SimpleCommand, type Word } from './shellReader';

/**
 * The first simple command in `line` that a pattern denies (its source text,
 * for the approval prompt), or undefined. A pattern like `git push` or `rm -rf`
 * matches a command named by its first word (`/bin/rm` counts as `rm`, after
 * `FOO=1` assignments) whose later words include the pattern's other words in
 * order, and whose options include the pattern's option letters in any
 * grouping (`rm -r -f`, `rm -fr`). Commands are found when chained (`&&`,
 * `||`, `;`, `|`, `&`, newlines), nested (`$(…)`, backticks, `( … )`,
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
  const [first, ...rest] = source.trim().split(/\s+/).filter((word) => word !== '');
  if (first === undefined) return undefined;
  return { name: baseName(first), words: rest.filter((word) => !word.startsWith('-')), options: rest.filter((word) => word.startsWith('-')) };
}

function matchesPattern(pattern: DeniedPattern, name: string, args: Word[]): boolean {
  if (name !== pattern.name) return false;
  const values = args.map((arg) => arg.text);
  let next = 0;
  for (const value of values) if (value === pattern.words[next]) next++;
  if (next < pattern.words.length) return false;
  return pattern.options.every((option) => hasOption(values, option));
}

function hasOption(values: string[], option: string): boolean {
  if (option.startsWith('--')) return values.some((value) => value === option || value.startsWith(`${option}=`));
  // Short options group freely (`-rf`, `-fr`, `-r -f`); case is ignored so `rm -Rf` counts as `rm -rf`.
  const present = values
    .filter((value) => /^-[^-]/.test(value))
    .join('')
    .toLowerCase();
  return [...option.slice(1).toLowerCase()].every((letter) => present.includes(letter));
}

// ---------------------------------------------------------------------------
// Simple commands: wrappers, nested shells, assignments

/** Words that run the rest of the command (or start a clause), with their options that take a separate value. */
const wrappers = new Map<string, string[]>(Object.entries({
  sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T'],
  doas: ['-u', '-C'],
  env: ['-u', '-C', '-S'],
  nice: ['-n'],
  ionice: ['-c', '-n', '-p'],
  timeout: ['-s', '-k'],
  xargs: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a'],
  stdbuf: ['-i', '-o', '-e'],
  exec: ['-a'],
  command: [],
  builtin: [],
  nohup: [],
  setsid: [],
  time: ['-f', '-o'],
  then: [],
  else: [],
  elif: [],
  do: [],
  if: [],
  while: [],
  until: [],
  '!': [],
  '{': [],
}));

/** Wrappers whose first plain argument is a value (a duration, a priority), not the command. */
const wrapperValueArgument = new Set(['timeout']);

const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);

function deniedInCommand(command: SimpleCommand, patterns: DeniedPattern[], depth: number): string | undefined {
  const words = withoutAssignments(command);
  const [first, ...args] = words;
  if (first === undefined) return undefined;
  const source = words.map((word) => word.raw).join(' ');
  if (first.dynamic) return source;
  const name = baseName(first.text);
  if (patterns.some((pattern) => matchesPattern(pattern, name, args))) return source;
  if (wrappers.has(name)) return deniedInCommand(afterOptions(name, args), patterns, depth + 1);
  if (shells.has(name)) {
    const script = shellScript(args);
    return script === undefined ? undefined : deniedInScript(script.text, patterns, depth + 1);
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

/** A wrapper's arguments from the wrapped command on. */
function afterOptions(wrapper: string, args: Word[]): Word[] {
  const takesValue = wrappers.get(wrapper) ?? [];
  let i = 0;
  while (i < args.length && args[i].text.startsWith('-') && args[i].text !== '-') {
    if (args[i].text === '--') {
      i++;
      break;
    }
    i += takesValue.includes(args[i].text) ? 2 : 1;
  }
  if (wrapperValueArgument.has(wrapper)) i++;
  return args.slice(i);
}

/** The script of `bash -c 'script'` (also `-lc`, `-ec` …), if that is how the shell is called. */
function shellScript(args: Word[]): Word | undefined {
  const flag = args.findIndex((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg.text));
  if (flag < 0) return undefined;
  return args.slice(flag + 1).find((arg) => !arg.text.startsWith('-'));
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
