/**
 * What the editor's language services know about the workspace: the problems
 * they report and where symbols are defined and used. VS Code implements it
 * (src/tools/vscode/vscodeLanguageServices.ts); a host without one (plain Node,
 * most unit tests) leaves ToolContext.languages unset and the tools say so.
 * Paths are workspace-relative with `/`; lines and columns are 1-based, as the
 * model sees them in read_file.
 */

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface Problem {
  path: string;
  line: number;
  column: number;
  severity: ProblemSeverity;
  message: string;
  /** Who reported it, e.g. "ts", "eslint". */
  source?: string;
  code?: string;
}

export interface CodePosition {
  line: number;
  column: number;
}

/** A place a language service points to. Outside the workspace only the file's name is given and nothing is read there. */
export interface CodeLocation extends CodePosition {
  path: string;
  inWorkspace: boolean;
}

export interface CodeSymbol {
  name: string;
  /** "function", "class", "method" … */
  kind: string;
  location: CodeLocation;
  /** The enclosing symbol's name, when the service gives one (workspace symbols). */
  container?: string;
  /** Nested symbols (document symbols). */
  children?: CodeSymbol[];
}

export interface Disposable {
  dispose(): void;
}

export interface LanguageServices {
  /** The problems reported now, for the files in `paths` or, without it, for every file in the workspace. */
  problems(paths?: readonly string[]): Problem[];
  /** Calls `listener` with the paths whose problems changed (workspace files only). */
  onDidChangeProblems(listener: (paths: readonly string[]) => void): Disposable;
  /**
   * Makes the language services check `path` and keep it checked (VS Code's
   * TypeScript checks only files open in an editor tab). True when it was
   * already checked.
   */
  track(path: string, signal: AbortSignal): Promise<boolean>;
  definitions(path: string, position: CodePosition, signal: AbortSignal): Promise<CodeLocation[]>;
  references(path: string, position: CodePosition, signal: AbortSignal): Promise<CodeLocation[]>;
  documentSymbols(path: string, signal: AbortSignal): Promise<CodeSymbol[]>;
  workspaceSymbols(query: string, signal: AbortSignal): Promise<CodeSymbol[]>;
}

const severityRank: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Most severe first, then by path, line and column. */
export function byGravity(a: Problem, b: Problem): number {
  return severityRank[a.severity] - severityRank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column;
}

/** One problem on one line, e.g. `src/a.ts:3:7: error TS2322: Type 'string' is not assignable to type 'number'.` */
export function formatProblem(problem: Problem, maxChars: number): string {
  const code = problem.code !== undefined ? `${problem.source === 'ts' ? 'TS' : ''}${problem.code} ` : '';
  const message = problem.message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  const line = `${problem.path}:${problem.line}:${problem.column}: ${problem.severity} ${code}${message}`;
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** At most `maxItems` lines and `maxChars` characters, with a note of what was left out. */
export function boundedLines(lines: readonly string[], maxItems: number, maxChars: number, what: string): string {
  const shown: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (shown.length >= maxItems || chars + line.length + 1 > maxChars) break;
    shown.push(line);
    chars += line.length + 1;
  }
  const left = lines.length - shown.length;
  if (left > 0) shown.push(`(${left} more ${what} not shown)`);
  return shown.join('\n');
}

/** The message of the tools when the host has no language services. */
export const noLanguageServices = 'This host has no language services (they come with VS Code); use search_text and read_file instead.';
