// Entry of the extension-host e2e suite: the standard `run()` of an extensionTestsPath
// module. Bundled to CommonJS by test/e2e/run.ts (vscode external). Import each test file
// here; they register with the harness, which runs them in order.
import { runAll } from './harness';
import './extension.test';
import './gateway.test';
// Clears the key and sets demo-key again; the chat model it leaves is the one gateway.test set.
import './placeholder.test';
import './activation.test';
import './workspaceSettings.test';
import './agent.test';
import './agentTools.test';
import './inlineEdit.test';
import './usage.test';
// Turns export to a team's collector on and off again (its own receiver, in this process).
import './telemetry.test';
// Its own .vscode/mcp.json, removed at its end; after usage, whose small session its large ones
// would push out of Show Usage's ten largest.
import './agentMcp.test';
// After the usage test: its session must stay among the ten largest of the run's sessions (the usage view
// lists ten). agentLanguage before agentSearch, which leaves the workspace's files changed.
import './agentLanguage.test';
// Its own files, removed at its end.
import './agentRealistic.test';
import './agentSearch.test';
import './sandboxEscape.test';
import './agentBackground.test';
// Its own skill folder, removed at its end.
import './agentSkills.test';
import './agentSubagent.test';
// Its own .claude folder, removed at its end.
import './agentHooks.test';
// Its own agent and prompt folders, removed at its end.
import './agentCustom.test';
// Its own agent, instructions and sample folders, removed at its end.
import './agentFiles.test';
// Its plan document closed at its end.
import './agentPlan.test';
// Makes the workspace folder a Git repository and removes it again at its end.
import './agentWorktree.test';
import './dialects.test';
// Sets only the key and base URL; runs on whichever chat model the earlier tests left selected.
import './notes.test';
// Picks a model in the Chat view and sets gateway.chatModel back to gw-chat at its end.
import './modelEverywhere.test';

export async function run(): Promise<void> {
  await runAll();
}
