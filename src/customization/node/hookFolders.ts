/**
 * A folder a hook runs the files of (`for f in scripts/checks/*.sh`, `PATH=tools/bin:$PATH fmt`): the review holds it
 * whole, so the approval digests each of its files (round 14: the folder added nothing to the digest, and a rewritten
 * script in it kept the approval). Past MAX_FOLDER_FILES files, or with folders inside (a glob may reach into them),
 * the digest cannot cover what it runs: a problem is added, so the approval is not remembered (the hook asks each time).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_HOOK_FILE_BYTES, type HookFileContent, type HookFileRequest } from '../common/hookContent';

const MAX_FOLDER_FILES = 64;

/** The digests of `folder`'s files (absolute; `shown` as the approval names it), through `content`; undefined when `folder` is no folder. */
export async function folderContents(
  folder: string,
  shown: string,
  content: (request: HookFileRequest, signal: AbortSignal) => Promise<HookFileContent | undefined>,
  signal: AbortSignal,
): Promise<HookFileContent[] | undefined> {
  if ((await stat(folder).catch(() => undefined))?.isDirectory() !== true) return undefined;
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return [{ path: shown, problem: 'the hook runs the files of this folder, which could not be listed' }];
  // A glob may reach into its folders (`scripts/*/run.sh`): what runs there is not covered, so the hook asks each time.
  if (entries.some((entry) => entry.isDirectory())) {
    return [{ path: shown, problem: 'the hook runs files of this folder, which holds folders a glob may reach; they are not checked' }];
  }
  const files = [...entries].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (files.length > MAX_FOLDER_FILES) {
    return [{ path: shown, problem: `the hook runs the files of this folder, which holds more than ${MAX_FOLDER_FILES}; they are not checked` }];
  }
  const found: HookFileContent[] = [];
  for (const entry of files) {
    const file = await content({ word: join(folder, entry.name), from: { cwd: '.' }, maxBytes: MAX_HOOK_FILE_BYTES }, signal);
    if (file !== undefined) found.push(file);
  }
  return found;
}
