/**
 * The folders a shell text's commands run their programs in, read from the lexer's words (shellLexer.ts: quotes,
 * `$'…'` and backslashes already decoded, each command's words grouped) rather than by a pattern over the raw text,
 * which missed `cd "tools"`, took cd's `-P` for the folder, and knew no runner's own folder option (round 19a):
 * - `cd` and `pushd`: the first word after their options (`-L`, `-P`, `-e`, `-@`, combined, and `--`), as bash reads them;
 * - a folder option's value, in either form (`--cwd tools`, `--cwd=tools`, `-Ctools`): make's and env's `-C`,
 *   `--directory`, `--chdir`; npm's `--prefix`; yarn's and bun's `--cwd`; pnpm's `--dir` and `-C`; task's `-d` and
 *   `--dir`; just's `-d` and `--working-directory`; mise's `-C` and `--cd`; flox's `-d` and `--dir`. The long options are
 *   read after any program (a wrong guess holds more, never less); `-d` only after task, just and flox, where it is the
 *   folder.
 * And the words an interpreter runs as its program (`node hooks`, `python3 pyhook`, `node .`): a folder there runs its
 * entry file (package.json's `main`, `index.js`, `__main__.py`).
 * A word keeps its parts: one the shell computes (`cd "$(…)"`, `cd t*`) is the caller's to read conservatively.
 */
import type { LexedWord, WordPart } from './shellLexer';

export interface CommandFolders {
  /** Words that name a folder a command runs in. */
  folders: LexedWord[];
  /** Words an interpreter is given as its program (a file, or a folder whose entry file it runs). */
  interpreted: LexedWord[];
}

const CHANGE_FOLDER = new Set(['cd', 'pushd']);
/** Long options whose value is the folder the program works in (any program's: the names are not used otherwise). */
const LONG_FOLDER_OPTIONS = ['--directory', '--prefix', '--cwd', '--cd', '--dir', '--chdir', '--working-directory'];
/** Programs whose `-d` is the folder they work in (elsewhere `-d` means many things). */
const SHORT_D_PROGRAMS = new Set(['task', 'just', 'flox']);
/** Interpreters that run a folder's entry file when given a folder. */
const INTERPRETERS = /^(?:node|nodejs|tsx|ts-node|python[0-9.]*|pypy[0-9.]*)$/;

/** The folder words and interpreted words of `words` (a shellLex result), command by command. */
export function commandFolders(words: readonly LexedWord[]): CommandFolders {
  const found: CommandFolders = { folders: [], interpreted: [] };
  const commands = new Map<number, LexedWord[]>();
  for (const word of words) {
    if (word.command === undefined || word.written) continue;
    const command = commands.get(word.command);
    if (command) command.push(word);
    else commands.set(word.command, [word]);
  }
  for (const command of commands.values()) readCommand(command, found);
  return found;
}

function readCommand(command: readonly LexedWord[], found: CommandFolders): void {
  // Whether task, just or flox came before (a flag, not the set of names: spreading it at each `-d` was quadratic).
  let shortD = false;
  for (let index = 0; index < command.length; index++) {
    const text = literalText(command[index]);
    if (text === undefined) continue;
    const program = text.slice(text.lastIndexOf('/') + 1);
    if (CHANGE_FOLDER.has(text)) {
      const operand = cdOperand(command, index + 1);
      if (operand !== undefined) found.folders.push(operand);
    }
    if (INTERPRETERS.test(program)) {
      found.interpreted.push(...interpreterOperands(command, index + 1, program));
    }
    const value = folderOptionValue(command, index, shortD);
    if (value !== undefined) found.folders.push(value);
    if (SHORT_D_PROGRAMS.has(program)) shortD = true;
  }
}

/** cd's folder: past its options (`-L`, `-P`, `-e`, `-@`, `--`); none for `cd` alone or `cd -` (the last folder). */
function cdOperand(command: readonly LexedWord[], from: number): LexedWord | undefined {
  for (let index = from; index < command.length; index++) {
    const text = literalText(command[index]);
    if (text === '--') return command[index + 1];
    if (text !== undefined && /^-[LPe@]+$/.test(text)) continue;
    return text === '-' ? undefined : command[index];
  }
  return undefined;
}

/** Python's options that take a value (`-X dev`, `-Xdev`, `-W error`), and those that end its options (`-c`, `-m`). */
const PYTHON_VALUE_LETTERS = 'XW';
const PYTHON_END_LETTERS = 'cm';
const PYTHON_LONG_VALUE = new Set(['--check-hash-based-pycs']);
/** Node's (and tsx's, ts-node's) options that take a value as the next word. */
const NODE_VALUE_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--input-type',
  '--env-file',
  '--env-file-if-exists',
  '--title',
  '--disable-warning',
  '--watch-path',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--experimental-config-file',
  '--inspect-port',
  '--redirect-warnings',
  '--tsconfig',
  '-P',
  '--project',
  '-O',
  '--compiler-options',
  '--compiler',
  '-I',
  '--ignore',
  '--cwd',
  '--dir',
]);
/** Node's options that give it its program as a string (read elsewhere): no operand is run. */
const NODE_END_OPTIONS = new Set(['-e', '--eval', '-p', '--print']);
/** Node's options known to take no value (others without `=` are read both ways: a wrong guess holds more). */
const NODE_FLAGS =
  /^--(?:no-|experimental-|trace-|enable-|disable-(?!warning$)|watch$|test$|inspect(?:-brk|-wait)?$|abort-on-uncaught-exception$|preserve-symlinks|pending-deprecation$|throw-deprecation$|frozen-intrinsics$|expose-gc$|allow-|permission$|check$|interactive$|transpile-only$|swc$|esm$|files$|pretty$|skip-project$|skip-ignore$|prefer-ts-exts$|log-error$|emit$|script-mode$|cwd-mode$)/;

/**
 * The words an interpreter runs as its program: the first word after its options, read with its own grammar (python's
 * `-X`/`-W` take a value, alone or joined, `-c`/`-m` end it; node's `-r`/`--require`/`--import`/`--loader` take one,
 * `-e`/`-p` end it; `--x=y` is one word). An option not known to take no value gives both readings: the next word as
 * the program, and the first word after that (a wrong guess holds more, never less). None for a module or a string.
 */
function interpreterOperands(command: readonly LexedWord[], from: number, program: string): LexedWord[] {
  const python = /^(?:python|pypy)/.test(program);
  const found: LexedWord[] = [];
  for (let index = from; index < command.length; index++) {
    const word = command[index];
    const text = literalText(word);
    if (text === undefined || !text.startsWith('-') || text === '-') {
      if (text !== '-') found.push(word);
      return found;
    }
    if (text === '--') {
      if (command[index + 1] !== undefined) found.push(command[index + 1]);
      return found;
    }
    if (text.startsWith('--') && text.includes('=')) continue;
    if (python) {
      if (text.startsWith('--')) {
        if (PYTHON_LONG_VALUE.has(text)) index++;
        continue;
      }
      let skip = 0;
      for (let at = 1; at < text.length; at++) {
        if (PYTHON_END_LETTERS.includes(text[at])) return found;
        if (PYTHON_VALUE_LETTERS.includes(text[at])) {
          skip = at === text.length - 1 ? 1 : 0;
          break;
        }
      }
      index += skip;
      continue;
    }
    if (NODE_END_OPTIONS.has(text)) return found;
    if (NODE_VALUE_OPTIONS.has(text)) {
      index++;
      continue;
    }
    if (/^-[a-zA-Z]$/.test(text) || NODE_FLAGS.test(text) || !text.startsWith('--')) continue;
    // An unknown long option: its next word may be its value or the program.
    const next = command[index + 1];
    const nextText = next === undefined ? undefined : literalText(next);
    if (next !== undefined && !nextText?.startsWith('-')) {
      found.push(next);
      index++;
    }
  }
  return found;
}

/** The folder an option at `command[index]` gives (`-C x`, `-Cx`, `--cwd x`, `--cwd=x`, task's `-d x`). */
function folderOptionValue(command: readonly LexedWord[], index: number, shortD: boolean): LexedWord | undefined {
  const word = command[index];
  const first = word.parts[0];
  if (first?.kind !== 'text' || !first.text.startsWith('-')) return undefined;
  const text = first.text;
  const short = text.startsWith('-C') ? 2 : text.startsWith('-d') && shortD ? 2 : 0;
  if (short > 0) return text.length === short && word.parts.length === 1 ? command[index + 1] : withoutPrefix(word, short);
  for (const option of LONG_FOLDER_OPTIONS) {
    if (text === option && word.parts.length === 1) return command[index + 1];
    if (text.startsWith(`${option}=`)) return withoutPrefix(word, option.length + 1);
  }
  return undefined;
}

/** The word without its first `length` characters (all in its first part, literal). */
function withoutPrefix(word: LexedWord, length: number): LexedWord | undefined {
  const [first, ...rest] = word.parts;
  if (first.kind !== 'text') return undefined;
  const parts: WordPart[] = [...(first.text.length > length ? [{ ...first, text: first.text.slice(length) }] : []), ...rest];
  return parts.length === 0 ? undefined : { ...word, parts };
}

/** A word's text when no part of it is an expansion. */
function literalText(word: LexedWord): string | undefined {
  let text = '';
  for (const part of word.parts) {
    if (part.kind !== 'text') return undefined;
    text += part.text;
  }
  return text;
}

/**
 * A `/`-separated relative folder without `..` (or '.'); undefined for anything else. How a hook's `cwd` is read, by
 * its approval (customization/common/hookConfig.ts) and by the sandbox's review of the configs that name one
 * (terminal/node/programConfigs.ts), so both read a hook's folder the same way.
 */
export function relativeFolder(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 500) return undefined;
  const trimmed = value
    .trim()
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '.';
  if (trimmed.startsWith('/') || trimmed.includes('\\') || trimmed.includes('\0')) return undefined;
  return trimmed.split('/').some((segment) => segment === '..' || segment === '') ? undefined : trimmed;
}
