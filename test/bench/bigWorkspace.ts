/**
 * The large workspace of issue 25's figures: 39,000 small source files in 390 folders, of which
 * 100 hold SEARCH_NEEDLE once (a search that returns 100 matches). Made in a temp folder.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const WORKSPACE_FILES = 39_000;
export const SEARCH_MATCHES = 100;
export const SEARCH_NEEDLE = 'bench_needle_of_issue_25';
const FILES_PER_FOLDER = 100;

export async function makeBigWorkspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'gateway-bench-39k-'));
  const every = Math.floor(WORKSPACE_FILES / SEARCH_MATCHES);
  for (let folder = 0; folder < WORKSPACE_FILES / FILES_PER_FOLDER; folder++) {
    const path = join(root, 'src', `module${folder}`);
    await mkdir(path, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const n = folder * FILES_PER_FOLDER + file;
      const marker = n % every === 0 && n / every < SEARCH_MATCHES ? `  // ${SEARCH_NEEDLE}\n` : '';
      writes.push(writeFile(join(path, `file${file}.ts`), `export function f${n}(x: number): number {\n${marker}  return x * ${n} + 1;\n}\n`));
    }
    await Promise.all(writes);
  }
  return root;
}

/** The path, relative to the root, of the workspace's file number `n`. */
export function workspaceFile(n: number): string {
  return `src/module${Math.floor(n / FILES_PER_FOLDER)}/file${n % FILES_PER_FOLDER}.ts`;
}
