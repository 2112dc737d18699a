/**
 * What the command policy knows about commands that run other commands:
 * wrappers (`sudo`, `env`, `timeout`, `xargs` …) with the options that take a
 * separate value, and shells, whose script comes from `-c`, a file or stdin.
 * Getting a wrapper's options wrong shifts which word is read as the command
 * name, so the value-taking options are listed in both their short and GNU
 * long forms.
 */
import type { Word } from './shellParser';

/** Words that run the rest of the command (or start a clause), with their options that take a separate value. */
const wrappers = new Map<string, string[]>(
  Object.entries({
    sudo: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-C',
      '--close-from',
      '-D',
      '--chdir',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '--role',
      '-t',
      '--type',
      '-U',
      '--other-user',
      '-T',
      '--command-timeout',
      '-R',
      '--chroot',
    ],
    doas: ['-u', '-C'],
    env: ['-u', '--unset', '-C', '--chdir'],
    nice: ['-n', '--adjustment'],
    ionice: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'],
    timeout: ['-s', '--signal', '-k', '--kill-after'],
    // GNU xargs' --replace, --max-lines and --eof take a value only after `=`.
    xargs: ['-I', '-n', '--max-args', '-P', '--max-procs', '-L', '-d', '--delimiter', '-E', '-s', '--max-chars', '-a', '--arg-file', '--process-slot-var'],
    stdbuf: ['-i', '--input', '-o', '--output', '-e', '--error'],
    exec: ['-a'],
    command: [],
    builtin: [],
    busybox: [],
    nohup: [],
    setsid: [],
    time: ['-f', '--format', '-o', '--output'],
    then: [],
    else: [],
    elif: [],
    do: [],
    if: [],
    while: [],
    until: [],
    '!': [],
    '{': [],
  }),
);

/** Wrappers whose first plain argument is a value (a duration, a priority), not the command. */
const wrapperValueArgument = new Set(['timeout']);

const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);

/** Shell options whose value is the next word. */
const shellOptionsWithValue = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

export function isWrapper(name: string): boolean {
  return wrappers.has(name);
}

export function isShell(name: string): boolean {
  return shells.has(name);
}

/** A wrapper's arguments from the wrapped command on. */
export function afterOptions(wrapper: string, args: Word[]): Word[] {
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

/**
 * `env -S 'rm -rf x'` (`--split-string`) splits its value into the command and
 * its first arguments: that value and what follows it, as a script to check.
 */
export function envSplitScript(args: Word[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i].text;
    if (text === '--') return undefined;
    const attached = /^(?:--split-string=|-S)(.+)$/s.exec(text);
    if (attached) return [attached[1], ...args.slice(i + 1).map((arg) => arg.raw)].join(' ');
    if (text === '-S' || text === '--split-string')
      return args
        .slice(i + 1)
        .map((arg, n) => (n === 0 ? arg.text : arg.raw))
        .join(' ');
  }
  return undefined;
}

/** The script of `bash -c 'script'` (also `-lc`, `-ec`, fish's `--command` …), if that is how the shell is called. */
export function shellScript(args: Word[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i].text;
    if (text.startsWith('--command=')) return text.slice('--command='.length);
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(text) || text === '--command') return args.slice(i + 1).find((arg) => !arg.text.startsWith('-'))?.text;
  }
  return undefined;
}

/**
 * Whether a shell called without `-c` reads its script from stdin (`… | sh`,
 * `bash <<< '…'`, `bash -s`), which no one can check before it runs. A script
 * file (`bash build.sh`) is not: it is no different from running `./build.sh`.
 */
export function shellReadsStdin(args: Word[]): boolean {
  if (args.some((arg) => arg.text === '--version' || arg.text === '--help')) return false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i].text;
    if (text === '-') return true;
    if (text === '--') return i + 1 >= args.length;
    if (/^-[A-Za-z]*s[A-Za-z]*$/.test(text)) return true;
    if (shellOptionsWithValue.has(text)) i++;
    else if (!/^[-+]/.test(text)) return false;
  }
  return true;
}
