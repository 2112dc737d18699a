/**
 * What the usage charts draw, decided apart from the drawing so it can be tested: each model and each surface
 * keeps one colour in every chart (a model is the same colour per day and in the cost chart, and no surface
 * shares a colour with a model), and slices too small to see in a bar are grouped into one "Other (N)" slice
 * that lists them, instead of being drawn as slivers nobody can hover.
 */
import type { UsageSurface } from './usageRecord';

/**
 * Colour slots: the `colour-N` classes of media/usage.css (Paul Tol's "muted" scheme, told apart with the
 * common colour-vision deficiencies, with lighter variants for dark themes). Slots 0–4 are the models'.
 */
export const MODEL_COLOURS = 5;
/** The surfaces' slots, after the models'. */
export const SURFACE_COLOURS: Readonly<Record<UsageSurface, number>> = { chat: 5, agent: 6, inline: 7, lm: 8 };
/** Grey: everything grouped ("Other models", "Other (N)"). */
export const OTHER_COLOUR = 9;

/** A slice's share of its chart's total below which it is grouped (under 2% it is a sliver of a bar). */
export const SMALL_SHARE = 0.02;

/** One model or surface: its name, its total over the shown days and its value on a day. */
export interface Member<T> {
  key: string;
  label: string;
  total: number;
  value: (day: T) => number;
}

export interface Slice<T> {
  key: string;
  label: string;
  colour: number;
  /** The slice's total over the shown days. */
  total: number;
  /** What it adds up: itself, or the grouped slices. */
  members: readonly Member<T>[];
  /** Its value on a day. */
  value: (day: T) => number;
}

/**
 * The models' colours: the five with the most tokens over the shown days (`models`, most first) get slots 0–4
 * in that order, every chart asks here, so a model never changes colour between charts; the rest are grey.
 */
export function modelColour(models: readonly string[], model: string): number {
  const rank = models.indexOf(model);
  return rank >= 0 && rank < MODEL_COLOURS ? rank : OTHER_COLOUR;
}

export function surfaceColour(surface: UsageSurface): number {
  return SURFACE_COLOURS[surface];
}

/** What `groupSmall` needs beyond the slices: how the group is named, the least share shown alone, the most slices shown alone. */
export interface Grouping {
  /** "Other models" or "Other": the count is added ("Other models (3)"). */
  otherLabel: string;
  minShare?: number;
  maxSlices?: number;
}

/**
 * Drops empty slices and groups the small ones: a slice under `minShare` of the total, or past `maxSlices`,
 * goes into one grey "Other (N)" slice whose members list each one's total (its tooltip and legend say them).
 * A lone small slice is not grouped (an "Other (1)" would hide its name for nothing): its legend entry
 * carries its total.
 */
export function groupSmall<T>(slices: readonly Slice<T>[], grouping: Grouping): Slice<T>[] {
  const { otherLabel, minShare = SMALL_SHARE, maxSlices = Number.POSITIVE_INFINITY } = grouping;
  const present = slices.filter((slice) => slice.total > 0);
  const sum = present.reduce((total, slice) => total + slice.total, 0);
  const isSmall = (slice: Slice<T>, index: number) => index >= maxSlices || slice.total < sum * minShare;
  const small = present.filter(isSmall);
  if (small.length < 2) return present;
  const other: Slice<T> = {
    key: 'other',
    label: `${otherLabel} (${small.length})`,
    colour: OTHER_COLOUR,
    total: small.reduce((total, slice) => total + slice.total, 0),
    members: small.flatMap((slice) => slice.members),
    value: (day) => small.reduce((total, slice) => total + slice.value(day), 0),
  };
  return [...present.filter((slice, index) => !isSmall(slice, index)), other];
}

/** A slice's figure for the legend: its total and share ("1,234 · 4%"; "<1%" for a sliver). */
export function shareText(total: number, sum: number, format: (n: number) => string): string {
  if (sum <= 0) return format(total);
  const share = (total / sum) * 100;
  return `${format(total)} · ${share > 0 && share < 1 ? '<1' : Math.round(share)}%`;
}

/** A grouped slice's members as a tooltip line, over the shown days or on one `day` (those with something then): "a: 12, b: 3". */
export function membersText<T>(members: readonly Member<T>[], format: (n: number) => string, day?: T): string {
  return members
    .map((member) => ({ label: member.label, total: day === undefined ? member.total : member.value(day) }))
    .filter((member) => member.total > 0)
    .map((member) => `${member.label}: ${format(member.total)}`)
    .join(', ');
}
