/**
 * The language services of VS Code for the agent's tools: the diagnostics
 * collection, and the definition, reference and symbol providers through the
 * `vscode.execute…Provider` commands. Only workspace files are reported by
 * path; a place outside the workspace is named by its file name alone.
 */
import * as vscode from 'vscode';
import type { CodeLocation, CodePosition, CodeSymbol, Disposable, LanguageServices, Problem, ProblemSeverity } from '../common/languageServices';
import { normalizeWorkspacePath } from '../common/pathPolicy';

const severities: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

export class VsCodeLanguageServices implements LanguageServices {
  constructor(private readonly rootUri: vscode.Uri) {}

  problems(paths?: readonly string[]): Problem[] {
    if (paths) return paths.flatMap((path) => vscode.languages.getDiagnostics(this.uriOf(path)).map((diagnostic) => problemOf(path, diagnostic)));
    return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) => {
      const path = this.pathOf(uri);
      return path === undefined ? [] : diagnostics.map((diagnostic) => problemOf(path, diagnostic));
    });
  }

  onDidChangeProblems(listener: (paths: readonly string[]) => void): Disposable {
    return vscode.languages.onDidChangeDiagnostics((event) => {
      const paths = event.uris.flatMap((uri) => this.pathOf(uri) ?? []);
      if (paths.length > 0) listener(paths);
    });
  }

  /**
   * Opens the file in an editor tab, in the background (the focus stays where it
   * is): VS Code's TypeScript, like other language servers, checks only the files
   * open in tabs. A tab that is not a preview, so the next file does not close it.
   */
  async track(path: string, signal: AbortSignal): Promise<boolean> {
    const uri = this.uriOf(path);
    if (inATab(uri)) return true;
    const document = await untilAborted(vscode.workspace.openTextDocument(uri), signal);
    await untilAborted(vscode.window.showTextDocument(document, { preview: false, preserveFocus: true }), signal);
    return false;
  }

  async definitions(path: string, position: CodePosition, signal: AbortSignal): Promise<CodeLocation[]> {
    const found = await this.execute<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      signal,
      this.uriOf(path),
      positionOf(position),
    );
    return found.map((place) =>
      'targetUri' in place
        ? this.locationOf(place.targetUri, (place.targetSelectionRange ?? place.targetRange).start)
        : this.locationOf(place.uri, place.range.start),
    );
  }

  async references(path: string, position: CodePosition, signal: AbortSignal): Promise<CodeLocation[]> {
    const found = await this.execute<vscode.Location[]>('vscode.executeReferenceProvider', signal, this.uriOf(path), positionOf(position));
    return found.map((place) => this.locationOf(place.uri, place.range.start));
  }

  async documentSymbols(path: string, signal: AbortSignal): Promise<CodeSymbol[]> {
    const uri = this.uriOf(path);
    const found = await this.execute<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>('vscode.executeDocumentSymbolProvider', signal, uri);
    return found.map((symbol) => ('location' in symbol ? this.symbolOf(symbol) : this.nestedSymbolOf(uri, symbol)));
  }

  async workspaceSymbols(query: string, signal: AbortSignal): Promise<CodeSymbol[]> {
    const found = await this.execute<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', signal, query);
    return found.map((symbol) => this.symbolOf(symbol));
  }

  /** A provider command's answer; none (no provider for the language) is an empty list. */
  private async execute<T extends unknown[]>(command: string, signal: AbortSignal, ...args: unknown[]): Promise<T> {
    const result = await untilAborted(vscode.commands.executeCommand<T | undefined>(command, ...args), signal);
    return result ?? ([] as unknown[] as T);
  }

  private symbolOf(symbol: vscode.SymbolInformation): CodeSymbol {
    const container = symbol.containerName === '' ? undefined : symbol.containerName;
    return { name: symbol.name, kind: kindName(symbol.kind), location: this.locationOf(symbol.location.uri, symbol.location.range.start), container };
  }

  private nestedSymbolOf(uri: vscode.Uri, symbol: vscode.DocumentSymbol): CodeSymbol {
    return {
      name: symbol.name,
      kind: kindName(symbol.kind),
      location: this.locationOf(uri, symbol.selectionRange.start),
      children: symbol.children.map((child) => this.nestedSymbolOf(uri, child)),
    };
  }

  private locationOf(uri: vscode.Uri, start: vscode.Position): CodeLocation {
    const path = this.pathOf(uri);
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    return { path: path ?? name, inWorkspace: path !== undefined, line: start.line + 1, column: start.character + 1 };
  }

  /** The workspace-relative path of `uri`, undefined outside the workspace. */
  private pathOf(uri: vscode.Uri): string | undefined {
    const root = this.rootUri;
    if (uri.scheme !== root.scheme || uri.authority !== root.authority || !uri.path.startsWith(`${root.path}/`)) return undefined;
    const normalized = normalizeWorkspacePath(uri.path.slice(root.path.length + 1));
    return normalized.ok && normalized.path !== '.' ? normalized.path : undefined;
  }

  private uriOf(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.rootUri, path);
  }
}

function problemOf(path: string, diagnostic: vscode.Diagnostic): Problem {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    path,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: severities[diagnostic.severity],
    message: diagnostic.message,
    ...(diagnostic.source !== undefined ? { source: diagnostic.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

function positionOf(position: CodePosition): vscode.Position {
  return new vscode.Position(position.line - 1, position.column - 1);
}

/** "Function", "Class" … as a lower-case word. */
function kindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'symbol').toLowerCase();
}

function inATab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === key));
}

/** VS Code's commands take no cancellation: the caller stops waiting for the answer instead. */
function untilAborted<T>(work: Thenable<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
