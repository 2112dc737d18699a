/**
 * The line typed into the agent's terminal: change to the working folder, then
 * run the command, in the syntax of the terminal's shell. Windows PowerShell 5.1
 * rejects `&&`, and shell integration reports `pwsh` for 5.1 and 7 alike, so every
 * PowerShell gets `;`. Kept free of `vscode` so it can be tested.
 */

export type ShellKind = 'posix' | 'fish' | 'powershell' | 'cmd';

/**
 * The shell's syntax family, from the type VS Code detected (`terminal.state.shell`:
 * 'bash', 'pwsh', 'cmd', 'fish', …) or, while that is unknown, the shell's
 * executable path (`vscode.env.shell`). Anything unrecognised is taken as POSIX.
 */
export function shellKindOf(detected: string | undefined, shellPath: string | undefined): ShellKind {
  const name = (detected ?? executableName(shellPath ?? '')).toLowerCase();
  if (name === 'pwsh' || name === 'powershell') return 'powershell';
  if (name === 'cmd') return 'cmd';
  if (name === 'fish') return 'fish';
  return 'posix';
}

/** "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe" → "powershell". */
function executableName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.exe$/i, '');
}

export function commandLineFor(kind: ShellKind, cwd: string, command: string): string {
  switch (kind) {
    case 'powershell':
      // -ErrorAction Stop: a folder that cannot be entered ends the line instead of running the command elsewhere.
      return `Set-Location -LiteralPath ${powershellQuote(cwd)} -ErrorAction Stop; ${command}`;
    case 'cmd':
      // /d also changes the drive. Windows paths cannot contain `"`.
      return `cd /d "${cwd}" && ${command}`;
    case 'fish':
      return `cd ${fishQuote(cwd)} && ${command}`;
    case 'posix':
      return `cd ${posixQuote(cwd)} && ${command}`;
  }
}

/** Single quotes take everything literally in POSIX shells; a quote is closed, escaped, reopened. */
export function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** In fish, `\\` and `\'` are escapes even inside single quotes. */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** PowerShell's single-quoted strings are literal; a quote (PowerShell counts the typographic ones too) is written twice. */
function powershellQuote(text: string): string {
  return `'${text.replace(/['\u2018\u2019\u201A\u201B]/g, (c) => c + c)}'`;
}
