/**
 * The rule for a program the runner table (taskRunners.ts) does not know: guarding more names never ends (round 19a),
 * so when a text runs a program that is neither a known runner nor a plain system command, the files at the top of
 * each folder it runs in that are named after the program are held and followed as its task file: `eslint` reads
 * eslint.config.js or .eslintrc.cjs, `prettier` .prettierrc.mjs, `golangci-lint` .golangci.yml, `danger`
 * dangerfile.ts, `brew bundle` Brewfile, `tilt` Tiltfile. That is the convention tools find their file by (the tool's
 * name, a leading dot, an `rc` or `file` suffix), and what such a file holds is often code the tool loads.
 * Only those files, not every file at the top: a repository's hook runs eslint or prettier, and holding its README or
 * package.json for that would make every other command wait (README, Security). A file the tool finds by another name
 * (pyproject.toml's table, a config folder) is met by the table only.
 * Cheap: each program is a few keys looked up in the listing of the folder, which namedFiles.ts already makes (no walk).
 */
import { afterOptions, isWrapper } from '../common/commandWrappers';
import { isKnownRunner, PACKAGE_RUNNERS } from './taskRunners';
import { ReviewBound } from './reviewBounds';

/** Programs that read no task file of the folder they run in: the shell's own words, coreutils, Git, interpreters and toolchains (their code is the project's sources). */
const PLAIN = new Set(
  (
    'sh bash zsh dash ksh mksh ash fish env exec command builtin eval source cd pushd popd echo printf test true false exit return set ' +
    'unset export local read shift trap wait sleep if then else elif fi for while until do done case esac in function select ' +
    'git grep egrep fgrep rg sed awk gawk cat head tail cut tr sort uniq wc xargs find ls cp mv rm mkdir rmdir touch chmod chown ln ' +
    'tee date basename dirname realpath readlink pwd which type hash tput stty mktemp diff cmp comm paste join expr seq yes nohup ' +
    'nice timeout time sudo doas stdbuf ionice setsid kill stat file du df tar gzip curl wget jq node nodejs python python2 python3 ' +
    'pip pip3 ruby perl php java javac go gofmt rustc rustup gcc cc clang dotnet swift tsc tsx ts-node run-parts logger'
  ).split(' '),
);
/** Words of the other languages a followed file may be (a script read whole): no program. */
const KEYWORDS = new Set(
  'const let var import from export function return class def try except finally with raise pass print require module await async new else end'.split(' '),
);
/** Distinct programs one text runs (a followed script in another language gives a word a line): past it the whole change set waits. */
const PROGRAMS = new ReviewBound(4096, 'the programs one hook or script runs');

/**
 * The programs `text` runs that the table does not know: the first word of each command (after assignments and
 * wrappers: `env X=1 exec eslint`), by its file name (`./node_modules/.bin/eslint` is eslint). A text a non-shell
 * interpreter runs (`#!/usr/bin/env node`) is code, not commands: none.
 */
export function unknownPrograms(text: string): string[] {
  if (/^#![^\n]*\b(?:node|python[0-9.]*|ruby|perl|php|deno|bun|tsx|ts-node)\b/.test(text)) return [];
  const found = new Set<string>();
  for (const command of text.split(/\n|&&|\|\||[;|&(`{}]|\$\(/)) {
    // A YAML config's `run: eslint`, `- entry: ruff`: the key is no program.
    const words = command
      .trim()
      .replace(/^(?:-[ \t]+)?[A-Za-z_][A-Za-z0-9_-]*:[ \t]+/, '')
      .split(/[ \t]+/);
    for (const program of programsOf(words, 0, 0)) {
      if (!/^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/.test(program) || program.length > 40) continue;
      if (PLAIN.has(program) || KEYWORDS.has(program) || isKnownRunner(program) || /^python[0-9.]*$/.test(program)) continue;
      found.add(program);
      PROGRAMS.check(found.size);
    }
  }
  return [...found];
}

const RUNNER_VERBS = new Set(['run', 'exec', 'dlx', 'x', 'run-script']);
/** A package runner's options whose value is the next word (`pnpm -C tools exec`, `npx --prefix tools`); `-p`/`--package` names a package, a program too. */
const RUNNER_VALUE_OPTIONS = new Set([
  '-C',
  '--dir',
  '--prefix',
  '--cwd',
  '--filter',
  '-F',
  '--workspace',
  '--cache',
  '--registry',
  '--userconfig',
  '-c',
  '--call',
  '--shell',
]);
const RUNNER_PACKAGE_OPTIONS = new Set(['-p', '--package']);
/** find's actions that run a command: the word after them is a program. */
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The programs a command's words run, read with each wrapper's own grammar (commandWrappers.ts: `timeout 60 eslint`,
 * `nice -n 10 eslint`, `xargs -n 1 eslint`, `env -u CI eslint`), a package runner's options and verbs (`pnpm -C tools
 * exec eslint`, `npx --prefix tools eslint`, `npx eslint@9`: the version off), and find's `-exec` (round 20a).
 */
function programsOf(words: readonly string[], from: number, depth: number): string[] {
  const programs: string[] = [];
  let index = from;
  while (index < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index]) || words[index].startsWith('-'))) index++;
  let program = programName(words[index]);
  if (isWrapper(program) && depth < 8) {
    const rest = words.slice(index + 1).map((text) => ({ text, raw: text, dynamic: false }));
    const after = afterOptions(program, rest);
    return programsOf(words, words.length - after.length, depth + 1);
  }
  if (program === 'find' && depth < 8) {
    for (let at = index + 1; at < words.length; at++) if (FIND_ACTIONS.has(words[at])) programs.push(...programsOf(words, at + 1, depth + 1));
    return programs;
  }
  // `npx eslint`, `yarn prettier`, `pnpm exec stylelint`: the program is the package runner's next word.
  if (PACKAGE_RUNNERS.test(program)) {
    index++;
    while (index < words.length && (words[index].startsWith('-') || RUNNER_VERBS.has(words[index]))) {
      if (RUNNER_PACKAGE_OPTIONS.has(words[index])) programs.push(programName(words[index + 1]));
      index += RUNNER_VALUE_OPTIONS.has(words[index]) || RUNNER_PACKAGE_OPTIONS.has(words[index]) ? 2 : 1;
    }
    program = programName(words[index]);
  }
  programs.push(program);
  return programs;
}

/** A command's word as a program's file name: quotes off, its folder (or a package's scope) off, a package's `@version` off. */
function programName(word: string | undefined): string {
  const name = (word ?? '').replace(/^["']|["']$/g, '');
  return name.slice(name.lastIndexOf('/') + 1).replace(/(?<=.)@[^@]*$/, '');
}

/** The keys (namedFiles.ts programKey) a program's own files answer to: its name, its first part, each with `rc` or `file`. */
export function programKeys(program: string): string[] {
  const whole = program.replace(/[-_.]/g, '');
  const first = program.split(/[-_.]/)[0];
  return [...new Set([whole, first].filter((stem) => stem.length >= 3).flatMap((stem) => [stem, `${stem}rc`, `${stem}file`]))].map((key) => `\0${key}`);
}

/**
 * The key a file at a folder's top answers to, for programKeys: its name without a leading dot, cut at its first `.`,
 * `-` or `_`, in lower case (`.eslintrc.cjs` is `eslintrc`, `eslint.config.mjs` `eslint`, `Gruntfile.js` `gruntfile`).
 */
export function programKey(name: string): string {
  return `\0${name.replace(/^\.+/, '').split(/[-_.]/)[0].toLowerCase()}`;
}
