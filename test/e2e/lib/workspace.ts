// A fresh sample workspace folder for a run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Workspace {
  dir: string;
  dispose(): void;
}

export function createSampleWorkspace(): Workspace {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-ws-'));
  writeFileSync(path.join(dir, 'README.md'), '# Sample\n\nThis is the e2e sample workspace.\n');
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(
    path.join(dir, 'src', 'hello.ts'),
    'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  );
  writeFileSync(path.join(dir, 'notes.txt'), 'Line one\nLine two\n');
  return {
    dir,
    dispose: () => {
      if (process.env.E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    },
  };
}
