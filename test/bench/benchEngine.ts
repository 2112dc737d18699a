/**
 * What the benches' agent engines share: the emulator's bench key, every tool on a real folder,
 * every call approved (`auto`), the real clock, no log. Each bench adds its budgets, limits
 * and store where they differ.
 */
import type { AgentEngineDeps } from '../../src/agent/common/engine/engine';
import { AGENT_INSTRUCTIONS } from '../../src/customization/common/instructions';
import { silentLogger, systemClock } from '../../src/base/common/ports';
import { GatewayClient } from '../../src/gateway/common';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { allTools } from '../../src/tools/common/registry';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeFileChanges } from '../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';

type SharedDeps = 'client' | 'store' | 'approver' | 'tools' | 'toolContext' | 'policy' | 'instructions' | 'clock' | 'logger';

/** `baseUrl`: the emulator's; `root`: the workspace folder the tools work in. Saves nothing (a bench may pass its own store). */
export function benchEngineDeps(baseUrl: () => string, root: string): Pick<AgentEngineDeps, SharedDeps> {
  return {
    client: new GatewayClient({ baseUrl, apiKey: { getApiKey: async () => 'bench-key' }, userAgent: 'bench' }),
    store: { save: async () => undefined, load: async () => undefined, list: async () => [] },
    approver: { approve: async () => true },
    tools: () => allTools,
    toolContext: {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
    },
    policy: () => ({ mode: 'auto', deniedCommands: [] }),
    instructions: AGENT_INSTRUCTIONS,
    clock: systemClock,
    logger: silentLogger,
  };
}
