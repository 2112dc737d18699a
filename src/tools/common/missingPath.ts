/**
 * What the model reads when a path it named does not exist. Real models slip
 * on a name (`counters.ts`, `Counter.ts`, `source/` for `src/`): naming the
 * paths that do exist with a similar name lets the next call be the right one,
 * without a list_files of the folder first.
 */
import type { WorkspaceFiles } from '../../base/common';
import { protectingPattern } from '../../base/common';

/** At most this many similar paths are named. */
const SIMILAR_LIMIT = 5;

/** `No file at "…".` with the similar paths that exist, if any, and the way to look. */
export async function missingFileMessage(path: string, files: WorkspaceFiles, protectedFiles: readonly string[], signal: AbortSignal): Promise<string> {
  const similar = await similarPaths(path, files, protectedFiles, signal).catch(() => []);
  const hint = similar.length > 0 ? ` Similar paths that exist: ${similar.join(', ')}.` : '';
  return `No file at "${path}".${hint} Use list_files to see what is there.`;
}

/**
 * The entries of the deepest folder of `path` that exists whose names are like
 * the first segment that does not, as workspace paths (folders end with "/").
 */
async function similarPaths(path: string, files: WorkspaceFiles, protectedFiles: readonly string[], signal: AbortSignal): Promise<string[]> {
  const segments = path.split('/');
  let depth = 0;
  while (depth < segments.length - 1 && (await files.stat(segments.slice(0, depth + 1).join('/'), signal))?.type === 'directory') depth++;
  const folder = segments.slice(0, depth).join('/');
  const wanted = segments[depth];
  const entries = await files.list(folder === '' ? '.' : folder, signal);
  return entries
    .map((entry) => ({ entry, distance: nameDistance(wanted, entry.name) }))
    .filter(({ entry, distance }) => distance <= allowedDistance(wanted) && protectingPattern(joined(folder, entry.name), protectedFiles) === undefined)
    .sort((a, b) => a.distance - b.distance || a.entry.name.localeCompare(b.entry.name))
    .slice(0, SIMILAR_LIMIT)
    .map(({ entry }) => `${joined(folder, entry.name)}${entry.type === 'directory' ? '/' : ''}`);
}

const joined = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);

/** A slip of about one character in four; a name shorter than 3 characters matches only by case. */
const allowedDistance = (name: string) => (name.length < 3 ? 0 : Math.max(1, Math.floor(name.length / 4)));

/**
 * Edit distance without regard to case; an abbreviation (`src` of `source`: the
 * shorter name's letters in order in the longer one, with the same first letter)
 * counts as one slip.
 */
function nameDistance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (short.length >= 3 && short !== long && short[0] === long[0] && isSubsequence(short, long)) return 1;
  return editDistance(x, y);
}

function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (const char of long) if (char === short[i]) i++;
  return i === short.length;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
