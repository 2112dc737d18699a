/** The conversation at a checkpoint: stored as transcript slices and the chain's other fields, and read back. */
import { parseSavedSession, type AgentSessionState } from '../../sessionModel/common';
import { isRecord, type Checkpoint } from './checkpointIndex';
import { CheckpointUnavailable } from './checkpointTypes';
import type { IndexFile } from './indexFile';

/** The fields of the session that make up the conversation, besides the transcript. */
export const CONVERSATION_FIELDS = [
  'previousResponseId',
  'unsent',
  'pendingCalls',
  'chainBase',
  'chainFrom',
  'contextTokens',
  'contextWindow',
  'compactions',
  'plan',
  'projectInstructions',
  'commandsRun',
  'lastCall',
] as const;

/** The session's conversation as it was at a checkpoint (transcript and chain), checked like a saved session. */
export async function readConversation(
  file: IndexFile,
  state: AgentSessionState,
  checkpoint: Checkpoint,
  signal: AbortSignal,
): Promise<Partial<AgentSessionState> & { transcript: AgentSessionState['transcript'] }> {
  const transcript: unknown[] = [];
  for (const segment of checkpoint.conversation.segments) {
    const items: unknown = JSON.parse(await file.blobOrThrow(segment, signal));
    if (!Array.isArray(items)) throw new CheckpointUnavailable('A checkpoint of this session is damaged; nothing was changed.');
    transcript.push(...(items as unknown[]));
  }
  const rest: unknown = JSON.parse(await file.blobOrThrow(checkpoint.conversation.rest, signal));
  const parsed = parseSavedSession({ ...(isRecord(rest) ? rest : {}), id: state.id, status: 'paused', transcript });
  if (!parsed || parsed.transcript.length !== checkpoint.conversation.length) {
    throw new CheckpointUnavailable('A checkpoint of this session is damaged; nothing was changed.');
  }
  const fields: Partial<AgentSessionState> = {};
  for (const key of CONVERSATION_FIELDS) (fields as Record<string, unknown>)[key] = parsed[key];
  return { ...fields, transcript: parsed.transcript };
}
