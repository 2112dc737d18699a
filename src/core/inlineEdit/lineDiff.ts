/**
 * A line diff between the selection and the model's rewrite, for decorating added and removed lines.
 *
 * Myers' O(ND) algorithm after trimming the common head and tail. Lines are compared without their
 * line breaks, so a CRLF document and an LF answer still match; joining the `equal` + `removed` lines
 * (resp. `equal` + `added`) with the text's line break gives back the original (resp. the proposal).
 * Within each change, removed lines come before added ones. Past {@link MAX_EDIT_DISTANCE} edits or
 * {@link MAX_DIFF_LINES} changed lines the diff gives up and reports the changed part as one replacement.
 */

export type DiffKind = 'equal' | 'added' | 'removed';

export interface DiffOp {
  kind: DiffKind;
  /** Never empty; consecutive ops never share a kind. */
  lines: string[];
}

export interface DiffStats {
  added: number;
  removed: number;
  unchanged: number;
}

/** Above this many lines (after the common head and tail), the middle is reported as a whole replacement. */
export const MAX_DIFF_LINES = 20_000;
/** Above this many added + removed lines, the middle is reported as a whole replacement. */
export const MAX_EDIT_DISTANCE = 1_000;

/** The lines of a text, without their breaks; '' has none, "a\n" has "a" and "". */
export function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/\r?\n/);
}

export function diffLines(original: string, proposed: string): DiffOp[] {
  return diffLineArrays(splitLines(original), splitLines(proposed));
}

export function diffLineArrays(original: readonly string[], proposed: readonly string[]): DiffOp[] {
  let head = 0;
  while (head < original.length && head < proposed.length && original[head] === proposed[head]) head++;
  let endA = original.length;
  let endB = proposed.length;
  while (endA > head && endB > head && original[endA - 1] === proposed[endB - 1]) {
    endA--;
    endB--;
  }
  const a = original.slice(head, endA);
  const b = proposed.slice(head, endB);

  const ops: DiffOp[] = [];
  append(ops, 'equal', original.slice(0, head));
  const script = a.length + b.length <= MAX_DIFF_LINES ? myers(a, b, MAX_EDIT_DISTANCE) : undefined;
  if (script === undefined) {
    append(ops, 'removed', a);
    append(ops, 'added', b);
  } else {
    // Replay the script, putting each change's removals before its additions.
    let removed: string[] = [];
    let added: string[] = [];
    let x = 0;
    let y = 0;
    for (const step of script) {
      if (step === 'removed') removed.push(a[x++]);
      else if (step === 'added') added.push(b[y++]);
      else {
        append(ops, 'removed', removed);
        append(ops, 'added', added);
        removed = [];
        added = [];
        append(ops, 'equal', [a[x]]);
        x++;
        y++;
      }
    }
    append(ops, 'removed', removed);
    append(ops, 'added', added);
  }
  append(ops, 'equal', original.slice(endA));
  return ops;
}

export function diffStats(ops: readonly DiffOp[]): DiffStats {
  const stats: DiffStats = { added: 0, removed: 0, unchanged: 0 };
  for (const op of ops) {
    if (op.kind === 'added') stats.added += op.lines.length;
    else if (op.kind === 'removed') stats.removed += op.lines.length;
    else stats.unchanged += op.lines.length;
  }
  return stats;
}

function append(ops: DiffOp[], kind: DiffKind, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const last = ops[ops.length - 1];
  if (last !== undefined && last.kind === kind) last.lines.push(...lines);
  else ops.push({ kind, lines: [...lines] });
}

/**
 * The shortest edit script turning `a` into `b`, one step per line, or undefined past `maxEdits` edits.
 * Keeps the furthest-reaching x per diagonal for each edit count d (only diagonals -d..d), then walks back.
 */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): DiffKind[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  /** trace[d] holds v[-d..d] as it was before step d. */
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= limit && found < 0; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;

  const steps: DiffKind[] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const before = trace[d];
    const at = (k: number) => before[k + d];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push('equal');
      x--;
      y--;
    }
    if (d > 0) {
      steps.push(x === prevX ? 'added' : 'removed');
      x = prevX;
      y = prevY;
    }
  }
  return steps.reverse();
}
