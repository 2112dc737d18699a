/**
 * Language services in memory, for the unit tests of what the tools make of them
 * (the real ones need VS Code: the e2e suite runs those). Files are "checked" by
 * a rule the test gives, a while after they are tracked, on the test's clock;
 * as VS Code does, a change event comes only when a file's problems change.
 */
import type { Clock } from '../../../src/base/common/ports';
import type { CodeLocation, CodePosition, CodeSymbol, Disposable, LanguageServices, Problem } from '../../../src/tools/common/languageServices';

export interface MemoryLanguageOptions {
  clock: Clock;
  /** The file's problems as a checker would find them now. */
  check?: (path: string) => Promise<Problem[]>;
  /** How long a check takes after the file is tracked. */
  checkMs?: number;
}

export class MemoryLanguageServices implements LanguageServices {
  readonly tracked = new Set<string>();
  /** Files whose tab has opened (see track). */
  readonly opened = new Set<string>();
  definitionsFound: CodeLocation[] = [];
  referencesFound: CodeLocation[] = [];
  symbolsFound: CodeSymbol[] = [];
  /** What each navigation call was asked. */
  readonly asked: { what: string; path?: string; position?: CodePosition; query?: string }[] = [];
  private readonly byPath = new Map<string, Problem[]>();
  private readonly listeners = new Set<(paths: readonly string[]) => void>();

  constructor(private readonly options: MemoryLanguageOptions) {}

  /** Sets a file's problems and tells the listeners when they differ. */
  set(path: string, problems: Problem[]): void {
    const same = JSON.stringify(this.byPath.get(path) ?? []) === JSON.stringify(problems);
    this.byPath.set(path, problems);
    if (!same) for (const listener of this.listeners) listener([path]);
  }

  problems(paths?: readonly string[]): Problem[] {
    const all = [...this.byPath.values()].flat();
    return paths ? all.filter((problem) => paths.includes(problem.path)) : all;
  }

  onDidChangeProblems(listener: (paths: readonly string[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Every track (re)checks the file, as an edit of an open document makes the real ones do. The file's tab
   * is open (`opened`) only once the returned promise resolves, a turn of the event loop later, as VS Code's
   * showTextDocument answers later than it is called.
   */
  async track(path: string): Promise<boolean> {
    const was = this.tracked.has(path);
    this.tracked.add(path);
    const check = this.options.check;
    if (check)
      this.options.clock.after(this.options.checkMs ?? 500, () => void check(path).then((found) => this.set(path, found)), new AbortController().signal);
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.opened.add(path);
    return was;
  }

  definitions(path: string, position: CodePosition): Promise<CodeLocation[]> {
    this.asked.push({ what: 'definitions', path, position });
    return Promise.resolve(this.definitionsFound);
  }

  references(path: string, position: CodePosition): Promise<CodeLocation[]> {
    this.asked.push({ what: 'references', path, position });
    return Promise.resolve(this.referencesFound);
  }

  documentSymbols(path: string): Promise<CodeSymbol[]> {
    this.asked.push({ what: 'documentSymbols', path });
    return Promise.resolve(this.symbolsFound);
  }

  workspaceSymbols(query: string): Promise<CodeSymbol[]> {
    this.asked.push({ what: 'workspaceSymbols', query });
    return Promise.resolve(this.symbolsFound);
  }
}

/** A problem with the fields a test does not care about filled in. */
export function problem(path: string, line: number, message: string, severity: Problem['severity'] = 'error'): Problem {
  return { path, line, column: 1, severity, message, source: 'ts', code: '2322' };
}
