/**
 * What a hook's approval covers besides its command line: the folder it belongs
 * to (the workspace's absolute path, or the home folder's for a home hook) and
 * the content of every file its command line names. The line is split into
 * words as a shell splits it, simply (quotes, backslashes, whitespace and the
 * operators `; & | < > ( )`; no expansion but the variables the hook host sets:
 * `$CLAUDE_PROJECT_DIR`, `$HOME` and a leading `~/`), and each word that names a
 * regular file of the workspace or the home folder (but the target of an output
 * redirection, `>> hook.log`: written, not run) is digested by the host,
 * through the HookFiles port, and so is what those files run in turn, followed
 * as the sandbox's review follows a Git hook (HookFiles.followed). A rewritten
 * script anywhere in the chain is then another hook, which asks again; a file that could not be digested (too large, a symlink out, a
 * protected or hard-linked file) is a marker the approval cannot be remembered by.
 */
import { commandWords, withoutOutputs } from '../../terminal/common';
import type { HookCommand } from './hookConfig';

/** Bytes of one file digested: a script, not data. */
export const MAX_HOOK_FILE_BYTES = 1024 * 1024;
/** Files digested for one hook. */
export const MAX_HOOK_FILES = 16;
/** Words of one hook's line looked up (each one a look-up on the disk). */
export const MAX_HOOK_WORDS = 64;

/** A word of a hook's line that may name a file, and what it is relative to. */
export interface HookFileRequest {
  /** The word with its quotes removed; after the variable (`/…` or empty) when `from` is the workspace or the home folder. */
  word: string;
  /** The hook's folder (workspace-relative; an absolute word is itself), the workspace folder (`$CLAUDE_PROJECT_DIR`) or the home folder (`~`, `$HOME`). */
  from: { cwd: string } | 'workspace' | 'home';
  /** The most bytes read: a larger file is a problem, not read. */
  maxBytes: number;
}

/** A file a hook names: where (workspace-relative, or `~/…` in the home folder), and its sha256 (hex) or why it was not read. */
export type HookFileContent = { path: string; digest: string; problem?: undefined } | { path: string; problem: string; digest?: undefined };

/** The host's reading of the files a hook names (on Node: through handles checked after they were opened). */
export interface HookFiles {
  /** The workspace folder's absolute path: a workspace hook's approval belongs to it. */
  readonly workspaceFolder: string;
  /** The home folder's absolute path (a home hook's approval belongs to it); undefined when there is none. */
  readonly homeFolder: string | undefined;
  /**
   * The file `request` names, when it is in the workspace or the home folder: its digest, or why it was not
   * read (too large, a symlink out, protected, more than one name, not a regular file). Undefined when it names
   * no file there: nothing, a folder, or a path elsewhere (a program of the system), which is never read.
   */
  content(request: HookFileRequest, signal: AbortSignal): Promise<HookFileContent | undefined>;
  /**
   * The files the files of `named` (as content() gave them) and the hook's `line` itself run in turn (`python3 -m
   * tools.check`, `npm run lint`, `make check`, `bash -c 'sh x.sh'` name no file as a word), followed as the
   * sandbox's review follows a Git hook (terminal/node/hookPrograms.ts): each digested, or a problem where the chain cannot be followed
   * whole (past its bounds): a rewrite anywhere in the chain is then another hook, which asks again.
   */
  followed?(named: readonly HookFileContent[], cwd: string, signal: AbortSignal, line?: string): Promise<HookFileContent[]>;
}

/** What one hook's approval covers besides its line. */
export interface HookContent {
  /** The folder the approval belongs to. */
  folder: string;
  /** The files its line names, in the order named. */
  files: HookFileContent[];
}

/**
 * The files `hook`'s line names, through `files` (bounded: MAX_HOOK_WORDS words looked up, MAX_HOOK_FILES files,
 * MAX_HOOK_FILE_BYTES each; past a bound a problem is added, so the approval is not remembered), and the folder
 * its approval belongs to. `lookUp` may share look-ups between the hooks of one run.
 */
export async function hookContent(
  hook: HookCommand,
  files: HookFiles,
  signal: AbortSignal,
  lookUp: (request: HookFileRequest, signal: AbortSignal) => Promise<HookFileContent | undefined> = (request, s) => files.content(request, s),
): Promise<HookContent> {
  // A home hook's file is named `~/…` (hookApprovals.ts's isHomeHook, which imports this file).
  const home = hook.source.startsWith('~/');
  const folder = home ? (files.homeFolder ?? '~') : files.workspaceFolder;
  const found: HookFileContent[] = [];
  const seen = new Set<string>();
  const requests = fileRequests(hook);
  if (requests.length > MAX_HOOK_WORDS) {
    found.push({ path: '…', problem: `the line has more than ${MAX_HOOK_WORDS} words that could name files; the rest are not checked` });
  }
  let counted = 0;
  for (const request of requests.slice(0, MAX_HOOK_WORDS)) {
    const content = await lookUp(request, signal);
    if (content === undefined || seen.has(content.path)) continue;
    seen.add(content.path);
    if (++counted > MAX_HOOK_FILES) {
      found.push({ path: content.path, problem: `the line names more than ${MAX_HOOK_FILES} files; the rest are not checked` });
      break;
    }
    found.push(content);
  }
  // What those files and the line itself run in turn (`sh scripts/hook.sh`, whose script runs `sh scripts/hook-lib.sh`;
  // `python3 -m tools.check`, whose module no word names as a file).
  if (files.followed) {
    for (const content of await files.followed(found, hook.cwd, signal, withoutOutputs(hook.command))) {
      if (seen.has(content.path)) continue;
      seen.add(content.path);
      found.push(content);
    }
  }
  return { folder, files: found };
}

/** The look-ups of `hook`'s words that may name a file, each once. */
function fileRequests(hook: HookCommand): HookFileRequest[] {
  const requests = new Map<string, HookFileRequest>();
  for (const { word, from, expanded, written } of commandWords(hook.command)) {
    if (expanded || written || word === '' || word.includes('\0')) continue;
    // After a folder's variable, a path under it (`${HOME}x` is another name).
    if (from !== undefined && !word.startsWith('/')) continue;
    const request: HookFileRequest = { word, from: from ?? { cwd: hook.cwd }, maxBytes: MAX_HOOK_FILE_BYTES };
    requests.set(requestKey(request), request);
  }
  return [...requests.values()];
}

/** One look-up's key, for sharing look-ups between hooks. */
export function requestKey(request: HookFileRequest): string {
  const from = typeof request.from === 'string' ? [request.from] : ['cwd', request.from.cwd];
  return JSON.stringify([...from, request.word, request.maxBytes]);
}

/** Whether every file of `content` was digested: only then can an approval of it be remembered. */
export function fullyChecked(content: HookContent): boolean {
  return content.files.every((file) => file.digest !== undefined);
}

/** The digest as the approval shows it. */
export function shortDigest(digest: string): string {
  return digest.slice(0, 12);
}
