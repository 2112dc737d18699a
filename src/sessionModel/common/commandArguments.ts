/**
 * What the agent commands were called for. A chat button or the palette passes
 * a session id (a string); a row of the Agent Sessions view passes the row's
 * element, the saved session itself. Kept free of `vscode` so it can be tested.
 */
import type { ApprovalRequest } from './sessionPorts';

/** The session id in a command's argument: the id itself, or a session object's `id`; undefined for anything else. */
export function sessionIdOf(argument: unknown): string | undefined {
  if (typeof argument === 'string') return argument;
  if (typeof argument === 'object' && argument !== null && 'id' in argument && typeof argument.id === 'string') return argument.id;
  return undefined;
}

/**
 * The approval Approve / Deny answers: the given call of the given session, or
 * that session's oldest waiting one when no call is named (a Sessions view row).
 * Only a call without any argument (the palette) answers the oldest of all;
 * an argument that names no session answers nothing rather than another session's.
 */
export function approvalToAnswer(waiting: readonly ApprovalRequest[], sessionArgument: unknown, callArgument: unknown): ApprovalRequest | undefined {
  const sessionId = sessionIdOf(sessionArgument);
  if (sessionArgument !== undefined && sessionId === undefined) return undefined;
  const candidates = sessionId === undefined ? waiting : waiting.filter((request) => request.sessionId === sessionId);
  return typeof callArgument === 'string' ? candidates.find((request) => request.callId === callArgument) : candidates[0];
}
