// The agent the sandbox shows a newcomer: the emulator plays this script for the first
// `@gateway /agent …` task of demo-key (any task text), so one task shows every part of a
// session: a file read, an edit proposed as a diff (Approve / Deny), a command to approve,
// a checkpoint after the edit, and the summary with Review Session Changes. Later tasks get
// the emulator's echo. The UI scenario of the sandbox agent runs the same script.
import type { ScriptedTurn } from '../emulator/types';

/** The sample folder's file the script works on (createSampleWorkspace writes it). */
export const SANDBOX_AGENT_FILE = 'src/hello.ts';
/** The command the script asks to run: it shows that the approved edit is on disk. */
export const SANDBOX_AGENT_COMMAND = `grep -n "Hi there" ${SANDBOX_AGENT_FILE}`;

const turn = (text: string, call?: { name: string; arguments: Record<string, unknown> }): ScriptedTurn => ({
  endpoint: 'responses',
  text,
  ...(call ? { toolCalls: [call] } : {}),
});

export const SANDBOX_AGENT_SCRIPT: ScriptedTurn[] = [
  turn('First I read the greeting.', { name: 'read_file', arguments: { path: SANDBOX_AGENT_FILE } }),
  turn('A friendlier greeting: the diff shows the change before anything is written.', {
    name: 'edit_file',
    arguments: { path: SANDBOX_AGENT_FILE, old_text: 'Hello, ', new_text: 'Hi there, ' },
  }),
  turn('Now I check that the file on disk says it.', { name: 'run_command', arguments: { command: SANDBOX_AGENT_COMMAND } }),
  turn(
    `Done: \`${SANDBOX_AGENT_FILE}\` now greets with "Hi there". **Review Session Changes** below shows the diff; ` +
      "**Revert Session Changes** (the session's menu in the Agent Sessions view, or the palette) puts the file back as it was before the session.",
  ),
];
