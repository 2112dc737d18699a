/**
 * The workspace's ignore rules as git reads them, by the `ignore` package:
 * `.git/info/exclude`, the root `.gitignore` and a `.gitignore` in any folder,
 * each file's patterns relative to its own folder, a deeper file overriding a
 * shallower one. A path is ignored when one of its folders is (git never looks
 * inside an ignored folder, so `!` cannot bring back a file under one).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';

/** Larger ignore files are read up to here: a hostile repository cannot make every check parse megabytes. */
const ignoreFileBytes = 256 * 1024;
/** Folders whose rules are kept; enough for a big tree, bounded for a hostile one. */
const cachedFolders = 2000;

interface Rules {
  mtimeMs: number;
  size: number;
  rules: Ignore | undefined;
}

export class IgnoreFiles {
  private readonly cache = new Map<string, Rules>();

  constructor(private readonly root: string) {}

  /**
   * Whether `path` (workspace-relative, `/`-separated) is ignored; `isDirectory`
   * is about the path itself. Each folder's ignore file is stat'ed once per call
   * and read again only when it changed.
   */
  async isIgnored(path: string, isDirectory: boolean, signal: AbortSignal): Promise<boolean> {
    return ignoredWith((file) => this.rulesOf(file), path, isDirectory, signal);
  }

  /**
   * For one walk: isIgnored with each ignore file stat'ed (and read, when it
   * changed) once for all the walk's checks, as git reads a folder's rules once
   * when it enters it, instead of once per check.
   */
  forOneWalk(): (path: string, isDirectory: boolean, signal: AbortSignal) => Promise<boolean> {
    const read = new Map<string, Promise<Ignore | undefined>>();
    const rulesOf = (file: string) => {
      let rules = read.get(file);
      if (rules === undefined) {
        // Bounded as the cache is: a hostile tree of folders cannot grow it without end.
        if (read.size >= cachedFolders) read.delete(read.keys().next().value as string);
        rules = this.rulesOf(file);
        read.set(file, rules);
      }
      return rules;
    };
    return (path, isDirectory, signal) => ignoredWith(rulesOf, path, isDirectory, signal);
  }

  private async rulesOf(file: string): Promise<Ignore | undefined> {
    const absolute = join(this.root, file);
    const info = await stat(absolute).catch(() => undefined);
    if (!info?.isFile()) {
      this.cache.delete(file);
      return undefined;
    }
    const known = this.cache.get(file);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return known.rules;
    const text = await readBounded(absolute);
    const rules = text === undefined ? undefined : ignoreRules().add(text);
    if (this.cache.size >= cachedFolders) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(file, { mtimeMs: info.mtimeMs, size: info.size, rules });
    return rules;
  }
}

/** Whether `path` is ignored, with the rules of each ignore file as `rulesOf` gives them. */
async function ignoredWith(rulesOf: (file: string) => Promise<Ignore | undefined>, path: string, isDirectory: boolean, signal: AbortSignal): Promise<boolean> {
  const segments = path.split('/');
  // levels[k]: the rules that apply inside the folder made of the first k segments.
  const levels: Ignore[][] = [];
  for (let depth = 0; depth < segments.length; depth++) {
    signal.throwIfAborted();
    const folder = segments.slice(0, depth).join('/');
    const files = depth === 0 ? ['.git/info/exclude', '.gitignore'] : [`${folder}/.gitignore`];
    const rules = await Promise.all(files.map((file) => rulesOf(file)));
    levels.push(rules.filter((r): r is Ignore => r !== undefined));
    const prefix = segments.slice(0, depth + 1).join('/');
    const last = depth === segments.length - 1;
    if (ignoredBy(levels, segments, prefix, last ? isDirectory : true)) return true;
  }
  return false;
}

/** The last rule that speaks about `prefix`, from the shallowest ignore file to the deepest, decides. */
function ignoredBy(levels: Ignore[][], segments: string[], prefix: string, isDirectory: boolean): boolean {
  let ignored = false;
  const depth = prefix.split('/').length;
  for (let level = 0; level < Math.min(levels.length, depth); level++) {
    const relative = segments.slice(level, depth).join('/') + (isDirectory ? '/' : '');
    for (const rules of levels[level]) {
      const verdict = rules.test(relative);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
  }
  return ignored;
}

async function readBounded(file: string): Promise<string | undefined> {
  try {
    const bytes = await readFile(file);
    return bytes.subarray(0, ignoreFileBytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The `ignore` package, loaded at the first ignore file read: the production build keeps it in a file
 * beside the bundle (dist/ignore.js, esbuild.mjs), which this require reads then (Node caches it).
 */
function ignoreRules(): Ignore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return (require('ignore') as typeof import('ignore'))();
}
