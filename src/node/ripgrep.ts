/**
 * The WorkspaceSearch port on ripgrep: VS Code's own `rg` (see ripgrepLocator.ts),
 * or Debian's in the unit tests. It runs as a child process with its arguments
 * as an array (no shell), from the workspace root, and its output is read with
 * bounds: per record, in total, in files listed and in time. Stopping the
 * iteration, or the signal, kills it at once.
 *
 * The flags give it the walk's rules: the workspace's ignore files at every
 * depth, also outside a git repository, and none above the root nor the
 * user's global one; hidden files; `node_modules` and `.git` always left out;
 * symlinks never followed (no `--follow`); no config file from the environment.
 * The tools check every path it returns again (see core/tools/engineSearch.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchPatternError, systemClock } from '../core/ports';
import type { Clock, FileMatchCount, FileMatches, FileQuery, SearchBatch, TextMatch, TextQuery, WorkspaceSearch } from '../core/ports';
import { alwaysIgnored } from './nodeWorkspaceFiles';
import { RipgrepLineReader } from './ripgrepLines';

export interface RipgrepLimits {
  /** All the output one run may write. */
  outputBytes: number;
  /** One JSON record (a matching line and its metadata) or one path. */
  recordBytes: number;
  /** Paths one listing returns. */
  files: number;
  /** How long one run may take. */
  timeMs: number;
}

export const ripgrepLimits: RipgrepLimits = {
  outputBytes: 64 * 1024 * 1024,
  // A matching line of a file at the 1 MB size limit, JSON-escaped, fits.
  recordBytes: 8 * 1024 * 1024,
  files: 200_000,
  timeMs: 30_000,
};

/** Batches are handed on at most this large, so the tools check paths while ripgrep still walks. */
const batchSize = 2000;
/** ripgrep's error text kept, for a refused pattern. */
const stderrBytes = 4096;

export class RipgrepSearch implements WorkspaceSearch {
  readonly name: string;

  constructor(
    private readonly rgPath: string,
    private readonly root: string,
    private readonly limits: RipgrepLimits = ripgrepLimits,
    private readonly clock: Clock = systemClock,
  ) {
    this.name = `ripgrep (${rgPath})`;
  }

  async *listFiles(query: FileQuery, signal: AbortSignal): AsyncIterable<SearchBatch<string>> {
    const restriction = await restrictionFile(query);
    try {
      let listed = 0;
      const args = ['--files', '--null', ...commonArgs(query, restriction?.path), '--', pathArgument(query)];
      for await (const batch of this.records(args, 0, signal)) {
        const items = batch.items.flatMap((record) => {
          const path = workspacePath(record);
          return path === undefined ? [] : [path];
        });
        listed += items.length;
        if (listed > this.limits.files) {
          yield { items: items.slice(0, items.length - (listed - this.limits.files)), stopped: `more than ${this.limits.files.toLocaleString('en-US')} files` };
          return;
        }
        yield { items, stopped: batch.stopped };
      }
    } finally {
      await restriction?.remove();
    }
  }

  async *searchFiles(query: TextQuery, wanted: (path: string) => boolean, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatches>> {
    // A line never holds a line break: text with one cannot match (and ripgrep would read it as two patterns).
    if (!query.regex && query.pattern.includes('\n')) return;
    const restriction = await restrictionFile(query);
    try {
      // Names with a line break are left out: in this output only a NUL ends a name, and a name could then pose as a warning.
      const args = [
        '--with-filename',
        '--null',
        '--line-number',
        '--column',
        '--stats',
        ...patternArgs(query),
        ...commonArgs(query, restriction?.path, { protectedIgnoringCase: true }),
        '--glob=!*\n*',
      ];
      const reader = new RipgrepLineReader(wanted, workspacePath);
      let records = 0;
      for await (const batch of this.records([...args, '--', pathArgument(query)], 10, signal, (stderr) =>
        records === 0 ? new SearchPatternError(patternReason(stderr)) : undefined,
      )) {
        records += batch.items.length;
        const items = reader.read(batch.items);
        if (batch.stopped !== undefined) {
          yield { items, stopped: batch.stopped };
          return;
        }
        if (items.length > 0) yield { items };
      }
      const last = reader.end();
      yield { items: last ? [last] : [], searched: appliesEveryGlob(query) ? reader.filesSearched : undefined };
    } finally {
      await restriction?.remove();
    }
  }

  async *countMatches(query: TextQuery, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatchCount>> {
    if (!query.regex && query.pattern.includes('\n')) return;
    const restriction = await restrictionFile(query);
    try {
      // Names with a line break are left out, as searchFiles leaves them out.
      const args = ['--count', '--null', ...patternArgs(query), ...commonArgs(query, restriction?.path), '--glob=!*\n*'];
      // `path\0count\n` per file; a path may hold a line break, never a NUL, so the output is cut at the NULs.
      let path: string | undefined;
      let first = true;
      let records = 0;
      for await (const batch of this.records([...args, '--', pathArgument(query)], 0, signal, (stderr) =>
        records === 0 ? new SearchPatternError(patternReason(stderr)) : undefined,
      )) {
        records += batch.items.length;
        const items: FileMatchCount[] = [];
        for (const record of batch.items) {
          // The first record is a path; each later one is the previous path's count, a line break, and the next path.
          const lineBreak = first ? -1 : record.indexOf(10);
          first = false;
          const lines = lineBreak > 0 ? Number(record.subarray(0, lineBreak).toString('latin1')) : NaN;
          if (path !== undefined && Number.isSafeInteger(lines)) items.push({ path, lines });
          path = workspacePath(record.subarray(lineBreak + 1));
        }
        yield { items, stopped: batch.stopped };
      }
    } finally {
      await restriction?.remove();
    }
  }

  async *matchingLines(query: TextQuery, paths: readonly string[], signal: AbortSignal): AsyncIterable<SearchBatch<TextMatch>> {
    // Chosen from countMatches, so no name holds a line break.
    for (const group of argumentGroups(paths.filter((path) => !path.includes('\n')))) {
      const args = ['--with-filename', '--null', '--line-number', '--column', '--no-config', '--no-messages', ...patternArgs(query)];
      args.push('--', ...group.map((path) => `./${path}`));
      const reader = new RipgrepLineReader(() => true, workspacePath);
      for await (const batch of this.records(args, 10, signal)) {
        const items = reader.read(batch.items).flatMap((file) => file.matches);
        if (batch.stopped !== undefined) {
          yield { items, stopped: batch.stopped };
          return;
        }
        yield { items };
      }
      yield { items: reader.end()?.matches ?? [] };
    }
  }

  /**
   * The records ripgrep writes, split at `separator`, in batches. `refusal`
   * turns an exit with status 2 into the error to throw (or undefined: ignored,
   * as when some file could not be read).
   */
  private async *records(
    args: string[],
    separator: number,
    signal: AbortSignal,
    refusal?: (stderr: string) => Error | undefined,
  ): AsyncGenerator<SearchBatch<Buffer>> {
    signal.throwIfAborted();
    const child = spawn(this.rgPath, args, { cwd: this.root, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, env: ripgrepEnvironment() });
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let spawnError: Error | undefined;
    child.once('error', (error) => (spawnError = error));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < stderrBytes) stderr += chunk.toString('utf8').slice(0, stderrBytes - stderr.length);
    });
    const kill = () => child.kill('SIGKILL');
    signal.addEventListener('abort', kill, { once: true });
    const timer = new AbortController();
    let stopped: string | undefined;
    this.clock.after(
      this.limits.timeMs,
      () => {
        stopped = `ripgrep ran longer than ${this.limits.timeMs / 1000} s`;
        kill();
      },
      timer.signal,
    );
    try {
      let pending: Buffer = Buffer.alloc(0);
      let total = 0;
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > this.limits.outputBytes) {
          stopped = `more than ${this.limits.outputBytes / (1024 * 1024)} MB of results`;
          break;
        }
        const { records, rest } = splitRecords(pending.length === 0 ? chunk : Buffer.concat([pending, chunk]), separator);
        pending = rest;
        if (pending.length > this.limits.recordBytes) {
          stopped = `a result longer than ${this.limits.recordBytes / (1024 * 1024)} MB`;
          break;
        }
        for (let i = 0; i < records.length; i += batchSize) yield { items: records.slice(i, i + batchSize) };
      }
      if (stopped !== undefined) {
        kill();
        yield { items: [], stopped };
        return;
      }
      const code = await exited;
      signal.throwIfAborted();
      if (spawnError) throw spawnError;
      if (pending.length > 0) yield { items: [pending] };
      if (code === 2) {
        const error = refusal?.(stderr);
        if (error) throw error;
      } else if (code !== 0 && code !== 1) {
        throw new Error(`ripgrep ended with ${code === null ? 'a signal' : `status ${code}`}: ${stderr.trim()}`);
      }
    } finally {
      timer.abort();
      signal.removeEventListener('abort', kill);
      if (child.exitCode === null && child.signalCode === null) kill();
    }
  }
}

/** How the pattern is matched: as the walk does, line by line, CRLF lines included, bytes as they are (no transcoding). */
function patternArgs(query: TextQuery): string[] {
  return [
    // `$` before a CRLF line end, as in the walk's lines; only a regex can hold one, and crlf mode costs a little.
    ...(query.regex && query.pattern.includes('$') ? ['--crlf'] : []),
    '--encoding=none',
    `--max-count=${query.maxMatchesPerFile}`,
    query.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(query.regex ? [] : ['--fixed-strings']),
    '--regexp',
    query.pattern,
  ];
}

/** Paths split so that no command line gets long (Windows allows 32,767 characters). */
function argumentGroups(paths: readonly string[]): string[][] {
  const groups: string[][] = [];
  let length = 0;
  for (const path of paths) {
    if (groups.length === 0 || length + path.length > 16_000) {
      groups.push([]);
      length = 0;
    }
    groups[groups.length - 1].push(path);
    length += path.length + 3;
  }
  return groups;
}

/** The flags every run shares: the walk's ignore rules, and what may be left out early. */
function commonArgs(query: FileQuery, restriction: string | undefined, options: { protectedIgnoringCase?: boolean } = {}): string[] {
  const args = ['--no-config', '--hidden', '--no-messages'];
  if (query.respectIgnore) {
    // The walk's rules (gitignore.ts): .gitignore files also outside a repository, none above the root, not the user's global one,
    // not .ignore/.rgignore (ripgrep 13, Debian's, still reads .rgignore; VS Code's 15 does not); the `ignore` package
    // matches case-insensitively.
    args.push('--no-require-git', '--no-ignore-parent', '--no-ignore-global', '--no-ignore-dot', '--ignore-file-case-insensitive');
    for (const name of alwaysIgnored) args.push(`--glob=!${name}`);
    for (const glob of query.excludedGlobs) if (plainGlob(glob)) args.push(`--glob=!${glob}`);
    if (restriction !== undefined) args.push(`--ignore-file=${restriction}`);
  } else {
    args.push('--no-ignore');
  }
  // In a listing case-sensitive (`--glob`, not `--iglob`): ripgrep matches most such globs by hash then, not by regex, 15 % less
  // CPU; `.ENV` gets through there and the tools' own check, which ignores case, leaves it out. A search ignores case, as
  // the tools do, so that the count of files it searched is theirs.
  const protectedFlag = options.protectedIgnoringCase ? '--iglob' : '--glob';
  for (const glob of query.protectedGlobs) if (plainGlob(glob)) args.push(`${protectedFlag}=!${glob}`);
  if (query.nameGlob !== undefined && plainGlob(query.nameGlob) && !query.nameGlob.includes(':')) {
    args.push(`--type-add=wanted:${query.nameGlob}`, '--type=wanted');
  }
  if (query.maxFileBytes !== undefined) args.push(`--max-filesize=${query.maxFileBytes}`);
  return args;
}

/** Whether commonArgs passes every glob of the query on to ripgrep (all of them plain). */
function appliesEveryGlob(query: FileQuery): boolean {
  const excludedApplied = query.excludedGlobs.length === 0 || (query.respectIgnore && query.excludedGlobs.every(plainGlob));
  const nameApplied = query.nameGlob === undefined || (plainGlob(query.nameGlob) && !query.nameGlob.includes(':'));
  return excludedApplied && nameApplied && query.protectedGlobs.every(plainGlob);
}

/**
 * A glob ripgrep reads as this project does (gitignore style: no `/` matches a
 * name at any depth, `*` stays within a segment and matches a leading dot).
 * Others are not passed: the tools' own check still applies them.
 */
function plainGlob(glob: string): boolean {
  return /^[\w.*?{},/@+ -]+$/.test(glob) && !glob.startsWith('/') && !glob.startsWith('./') && !glob.endsWith('/');
}

/**
 * The folder searched is given as a path only when no ignore file applies (an
 * ignored folder asked for by name). Otherwise ripgrep starts at the root and an
 * ignore file of our own leaves out everything beside the folder, so that the
 * ignore files of its parent folders in the workspace apply (ripgrep reads a
 * parent folder's rules only up to its own starting point, and anchored ones
 * not at all).
 */
function pathArgument(query: FileQuery): string {
  return query.respectIgnore || query.folder === '.' ? '.' : `./${query.folder}`;
}

async function restrictionFile(query: FileQuery): Promise<{ path: string; remove: () => Promise<void> } | undefined> {
  if (!query.respectIgnore || query.folder === '.') return undefined;
  // An ignore file cannot name a folder with a line break; the tools walk that one instead.
  if (/[\r\n]/.test(query.folder)) throw new Error('a folder name with a line break cannot be searched by ripgrep');
  const segments = query.folder.split('/');
  const lines: string[] = [];
  for (let depth = 0; depth < segments.length; depth++) {
    const parent = segments.slice(0, depth).map(escapeIgnoreSegment).join('/');
    const inside = segments
      .slice(0, depth + 1)
      .map(escapeIgnoreSegment)
      .join('/');
    lines.push(depth === 0 ? '/*' : `/${parent}/*`, `!/${inside}/`);
  }
  const folder = await mkdtemp(join(tmpdir(), 'gateway-rg-'));
  const path = join(folder, 'restrict');
  await writeFile(path, `${lines.join('\n')}\n`);
  return { path, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** A folder name as a literal in an ignore file. */
function escapeIgnoreSegment(name: string): string {
  return name.replace(/[\\*?[\]!#\s]/g, (c) => `\\${c}`);
}

/** ripgrep with its defaults: no config file named by the environment (`--no-config` too), no colours. */
function ripgrepEnvironment(): NodeJS.ProcessEnv {
  const { RIPGREP_CONFIG_PATH: _config, ...env } = process.env;
  return env;
}

function splitRecords(buffer: Buffer, separator: number): { records: Buffer[]; rest: Buffer } {
  const records: Buffer[] = [];
  let start = 0;
  for (let end = buffer.indexOf(separator, start); end >= 0; end = buffer.indexOf(separator, start)) {
    if (end > start) records.push(buffer.subarray(start, end));
    start = end + 1;
  }
  return { records, rest: buffer.subarray(start) };
}

/** A path as ripgrep wrote it (`./a/b`), workspace-relative; undefined for a name that is not UTF-8 (or none). */
function workspacePath(raw: Buffer | string): string | undefined {
  if (raw.length === 0) return undefined;
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  // Bytes that are not UTF-8 decode to U+FFFD; only then is the name encoded again to compare.
  if (typeof raw !== 'string' && text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(raw)) return undefined;
  const path = process.platform === 'win32' ? text.replace(/\\/g, '/') : text;
  return path.startsWith('./') ? path.slice(2) : path;
}

/** ripgrep's reason for refusing a pattern, without its advice about flags the model cannot pass. */
function patternReason(stderr: string): string {
  const text = stderr
    .replace(/^rg: /gm, '')
    .split(/\n\s*\n/)[0]
    .trim();
  const error = /^error: (.+)$/m.exec(text);
  return (error ? error[1] : text.split('\n')[0]).trim() || 'ripgrep refused it';
}
