/**
 * How a session reads in the Sessions view's row (issue 27): the view is narrow by
 * default, so the label is the title cut to what fits and the description the
 * state, the turns and when the session started (which tells two sessions of one
 * title apart); tokens, the model and the context stay in the tooltip.
 */
import { counted } from '../../../base/common';
import type { PlanStep } from '../../../tools/common';
import type { AgentSessionState } from '../../../sessionModel/common';

/** About what the view shows of a label at its default width beside a short description. */
export const SESSION_LABEL_CHARS = 32;

export interface SessionRow {
  label: string;
  description: string;
}

/** `now` decides whether the start is today (a time) or earlier (a date and a time); `timeZoneOffsetMinutes` as Date's getTimezoneOffset. */
export function sessionRow(
  state: Pick<AgentSessionState, 'id' | 'title' | 'status' | 'turns' | 'createdAt'>,
  now: number,
  timeZoneOffsetMinutes = 0,
): SessionRow {
  const title = (state.title || state.id).replace(/\s+/g, ' ').trim();
  const label = shortTitle(title, SESSION_LABEL_CHARS);
  const status = state.status.replace('_', ' ');
  return { label, description: `${status} · ${counted(state.turns, 'turn')} · ${startedAt(state.createdAt, now, timeZoneOffsetMinutes)}` };
}

/** The title whole when it fits, else cut at a word boundary (or at the limit) with an ellipsis. */
export function shortTitle(title: string, chars: number): string {
  if (title.length <= chars) return title;
  const cut = title.slice(0, chars - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= chars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** "14:05" today, "Nov 25 14:05" before: a local time in 24 h, the same in every locale. */
function startedAt(at: number, now: number, offsetMinutes: number): string {
  const local = (ms: number) => new Date(ms - offsetMinutes * 60_000);
  const start = local(at);
  const time = `${pad(start.getUTCHours())}:${pad(start.getUTCMinutes())}`;
  if (start.toISOString().slice(0, 10) === local(now).toISOString().slice(0, 10)) return time;
  return `${MONTHS[start.getUTCMonth()]} ${start.getUTCDate()} ${time}`;
}

/** "14:05:09": a checkpoint's local time in 24 h with seconds (checkpoints come seconds apart), like the session rows' times. */
export function checkpointTime(at: number, offsetMinutes: number): string {
  const local = new Date(at - offsetMinutes * 60_000);
  return `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A plan step as the view says it: a session that is no longer running has no step "in progress";
 * its unfinished steps say so instead.
 */
export function planStepText(status: PlanStep['status'], sessionStatus: AgentSessionState['status']): string {
  const running = sessionStatus === 'running' || sessionStatus === 'awaiting_approval';
  if (running || status === 'done') return status.replace('_', ' ');
  return status === 'in_progress' ? 'not finished' : 'not started';
}
