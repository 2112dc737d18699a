// A fresh sample workspace folder for a run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Workspace {
  dir: string;
  dispose(): void;
}

/** `workspaceSettings`: written to the folder's .vscode/settings.json, as a cloned repository could carry it. */
export function createSampleWorkspace(workspaceSettings?: Record<string, unknown>): Workspace {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-ws-'));
  if (workspaceSettings) {
    mkdirSync(path.join(dir, '.vscode'));
    writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(workspaceSettings, null, 2));
  }
  writeFileSync(path.join(dir, 'README.md'), '# Sample\n\nThis is the e2e sample workspace.\n');
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'hello.ts'), 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n');
  writeFileSync(path.join(dir, 'notes.txt'), 'Line one\nLine two\n');
  return {
    dir,
    dispose: () => {
      if (process.env.E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    },
  };
}
