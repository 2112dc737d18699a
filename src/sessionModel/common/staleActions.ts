/**
 * What a button says when what it would do no longer applies: a notification or a chat turn keeps its buttons
 * after the session they name was deleted, or continued elsewhere and is running again, and VS Code cannot take
 * them back. Each answer says why, and what to do now; undefined: the action still applies.
 */
import type { AgentSessionState } from './sessionState';

/** The session buttons that can outlive their session's state. */
export type SessionAction = 'continue' | 'review' | 'restore';

const AFTER_DELETE: Readonly<Record<SessionAction, string>> = {
  continue: 'Start a new one with "Gateway: Start Agent Session…" or `@gateway /agent <task>`.',
  review: "Its changes stay in your files: Git or the editor's Timeline shows them.",
  restore: 'Its checkpoints went with it: Git or the editor’s Timeline has earlier versions of your files.',
};

/** `action` on `saved` (undefined: no longer saved), which may be `running` now. */
export function sessionActionNoLongerApplies(
  action: SessionAction,
  saved: Pick<AgentSessionState, 'title' | 'id'> | undefined,
  running: boolean,
): string | undefined {
  if (!saved) return `That agent session was deleted, so this button no longer applies. ${AFTER_DELETE[action]}`;
  const name = `"${saved.title || saved.id}"`;
  if (running && action === 'continue') return `${name} is already running (it was continued from somewhere else): follow it in the Sessions view.`;
  if (running && action === 'restore') return `${name} is running again, so this restore was not done: stop it in the Sessions view first, then restore.`;
  return undefined;
}

/**
 * Plan first's Start on the planning session `saved` (undefined: deleted, or not a planning session): it says why
 * it does nothing when the plan is still being made, or was started already (`startedAs`: when, as the user reads it).
 */
export function planStartNoLongerApplies(
  saved: Pick<AgentSessionState, 'title' | 'id'> | undefined,
  running: boolean,
  startedAs: string | undefined,
): string | undefined {
  const again = 'Make a new one with `@gateway /plan <task>` or "Gateway: Plan Before Acting…".';
  if (!saved) return `That plan's session was deleted, so this button no longer applies. ${again}`;
  const name = `"${saved.title || saved.id}"`;
  if (startedAs !== undefined)
    return `The plan ${name} was already started (${startedAs}), so it was not started again: follow it in the Sessions view. ${again}`;
  if (running) return `The plan ${name} is still being made: wait for it to finish, then Start.`;
  return undefined;
}
