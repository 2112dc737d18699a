/** What "Edit Selection" edits: the selection, else the enclosing block (smallest symbol around the cursor), else the current line. */
import * as vscode from 'vscode';

export async function editRange(editor: vscode.TextEditor): Promise<vscode.Range> {
  const selection = editor.selection;
  if (!selection.isEmpty) return wholeLines(editor.document, selection);
  const block = await enclosingSymbol(editor.document, selection.active);
  return block ?? editor.document.lineAt(selection.active.line).rangeIncludingLineBreak;
}

/** Whole lines, so the model sees complete statements and indentation. */
function wholeLines(document: vscode.TextDocument, range: vscode.Range): vscode.Range {
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  const end = endLine + 1 < document.lineCount ? new vscode.Position(endLine + 1, 0) : document.lineAt(endLine).range.end;
  return new vscode.Range(new vscode.Position(range.start.line, 0), end);
}

async function enclosingSymbol(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Range | undefined> {
  let symbols: vscode.DocumentSymbol[] | undefined;
  try {
    symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri);
  } catch {
    return undefined;
  }
  let best: vscode.DocumentSymbol | undefined;
  const visit = (list: readonly vscode.DocumentSymbol[]) => {
    for (const symbol of list) {
      if (!symbol.range.contains(position)) continue;
      if (!best || best.range.contains(symbol.range)) best = symbol;
      visit(symbol.children);
    }
  };
  visit(symbols ?? []);
  return best ? wholeLines(document, best.range) : undefined;
}
