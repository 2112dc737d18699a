// Files written into a test workspace folder, their folders made first.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export async function putFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}
