/** Builds real agent engines for tests: the emulator as the gateway, a temp folder as the workspace. */
import type { LanguageServices } from '../../../src/tools/common/languageServices';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AgentEngine, type AgentEngineDeps } from '../../../src/agent/common/engine/engine';
import { type AgentEvent } from '../../../src/sessionModel/common/agentEvents';
import { type AgentBudgets } from '../../../src/settings/common/valueSets';
import { DEFAULT_BUDGETS } from '../../../src/settings/common/valueSets';
import type { ApprovalPolicy } from '../../../src/agent/common/approvals/approvalPolicy';
import { AGENT_INSTRUCTIONS } from '../../../src/customization/common/instructions';
import { addUserMessage, newSession, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import type { Clock } from '../../../src/base/common/ports';
import type { ApprovalRequest, SessionStore } from '../../../src/sessionModel/common/sessionPorts';
import { silentLogger, systemClock } from '../../../src/base/common/ports';
import { toolsFor } from '../../../src/tools/common/registry';
import { type AgentTool } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { after, afterEach, before, beforeEach } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeClient } from './clients';
import { ModelWindows, memoryWindowStore } from '../../../src/models/common/modelWindows';
import { type GatewayClientOptions } from '../../../src/gateway/common/client';

/** Keeps a deep copy of every save, so a test can resume from any step. */
export class RecordingStore implements SessionStore<AgentSessionState> {
  readonly snapshots: AgentSessionState[] = [];
  /** What `onSave` captured at each save (e.g. the workspace files), index for index with `snapshots`. */
  readonly captured: unknown[] = [];
  private readonly byId = new Map<string, AgentSessionState>();
  /**
   * `keepSnapshots: false` keeps only each session's last save: a 200-turn session saves hundreds of ever longer
   * states, and holding every one of them cost more garbage collection than the session itself.
   */
  constructor(
    private readonly onSave?: () => unknown,
    private readonly options: { keepSnapshots: boolean } = { keepSnapshots: true },
  ) {}
  async save(state: AgentSessionState): Promise<void> {
    const copy = structuredClone(state);
    if (this.options.keepSnapshots) this.snapshots.push(copy);
    if (this.options.keepSnapshots) this.captured.push(this.onSave?.());
    this.byId.set(state.id, copy);
  }
  async load(id: string): Promise<AgentSessionState | undefined> {
    const state = this.byId.get(id);
    return state && structuredClone(state);
  }
  async list(): Promise<AgentSessionState[]> {
    return [...this.byId.values()].map((s) => structuredClone(s));
  }
}

export class TempWorkspace {
  readonly root = mkdtempSync(join(tmpdir(), 'gateway-agent-'));
  write(path: string, content: string): void {
    mkdirSync(dirname(join(this.root, path)), { recursive: true });
    writeFileSync(join(this.root, path), content);
  }
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export interface EngineOptions {
  baseUrl: string;
  key?: string;
  workspace: TempWorkspace;
  store?: RecordingStore;
  policy?: ApprovalPolicy;
  budgets?: Partial<AgentBudgets>;
  trusted?: boolean;
  clock?: Clock;
  /** Send the workspace's AGENTS.md files (off by default, so other tests see only their own items). */
  projectInstructions?: boolean;
  protectedFiles?: readonly string[];
  /** Tools offered besides the built-in ones (host tools). */
  extraTools?: readonly AgentTool[];
  /** Answers approvals; by default approves everything. */
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  /** Context windows: by default gateway.models empty and nothing learned (the conservative default). */
  windows?: ModelWindows;
  tokensPerMinute?: number;
  /** The client's usage listener (the usage log in the extension). */
  onUsage?: GatewayClientOptions['onUsage'];
  spendGate?: AgentEngineDeps['spendGate'];
  /** Records a checkpoint after each step that changed files. */
  checkpoint?: AgentEngineDeps['checkpoint'];
  /** Language services for the tools (and the clock they settle on). */
  languages?: LanguageServices;
  /** Keeps a changed file's content from before the session (the checkpoint baseline). */
  keepOriginal?: AgentEngineDeps['keepOriginal'];
  /** The engine's log (silent by default). */
  logger?: AgentEngineDeps['logger'];
  /** Offer run_subagent (`gateway.agent.subagents`). */
  subagents?: boolean;
  /** The workspace's hooks for the run (none by default). */
  hooks?: AgentEngineDeps['hooks'];
  /** The user's home skills (none by default). */
  homeSkills?: AgentEngineDeps['homeSkills'];
  /** Narrows the tools offered (a custom agent's list), and the instructions sent (AGENT_INSTRUCTIONS by default). */
  limitTools?: (tools: readonly AgentTool[]) => readonly AgentTool[];
  instructions?: string;
}

export function makeEngine(options: EngineOptions) {
  const approvals: ApprovalRequest[] = [];
  const store = options.store ?? new RecordingStore();
  const clock = options.clock ?? systemClock;
  const windows =
    options.windows ??
    new ModelWindows(
      () => ({}),
      () => options.baseUrl,
      memoryWindowStore(),
    );
  const engine = new AgentEngine({
    client: makeClient(options.baseUrl, options.key ?? 'demo-key', options.onUsage ? { onUsage: options.onUsage } : {}),
    store,
    approver: {
      approve: async (request) => {
        approvals.push(request);
        return (await options.approve?.(request)) ?? true;
      },
    },
    tools: () => (options.limitTools ?? ((tools) => tools))([...toolsFor(options.trusted ?? true), ...(options.extraTools ?? [])]),
    toolContext: {
      files: new NodeWorkspaceFiles(options.workspace.root),
      changes: new NodeFileChanges(options.workspace.root),
      commands: new NodeCommandRunner(options.workspace.root),
      protectedFiles: options.protectedFiles ?? defaultProtectedFiles,
      logger: silentLogger,
      ...(options.languages ? { languages: options.languages, clock } : {}),
    },
    policy: () => options.policy ?? { mode: 'auto', deniedCommands: ['rm -rf'] },
    budgets: () => ({ ...DEFAULT_BUDGETS, ...options.budgets }),
    instructions: options.instructions ?? AGENT_INSTRUCTIONS,
    projectInstructions: options.projectInstructions,
    clock,
    logger: options.logger ?? { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    modelLimits: (model) => windows.limitsOf(model),
    learnContextWindow: (model, window) => windows.learn(model, window),
    tokensPerMinute: () => options.tokensPerMinute,
    spendGate: options.spendGate,
    checkpoint: options.checkpoint,
    keepOriginal: options.keepOriginal,
    subagents: options.subagents,
    hooks: options.hooks,
    homeSkills: options.homeSkills,
  });
  return { engine, store, approvals, windows };
}

let counter = 0;
export function startSession(task: string, model = 'gw-code'): AgentSessionState {
  const state = newSession({ id: `s${++counter}`, title: task, model, now: Date.now() });
  addUserMessage(state, task);
  return state;
}

export async function runToEnd(engine: AgentEngine, state: AgentSessionState, signal = new AbortController().signal) {
  const events: AgentEvent[] = [];
  await engine.run(state, signal, (event) => events.push(event));
  return events;
}

/**
 * The fixture most agent tests share: one emulator for the file (reset before each test) and a fresh
 * temporary workspace holding `files` for each test. Read `emulator` and `workspace` inside tests.
 */
export function useEmulatorAndWorkspace(files: Record<string, string>): { emulator: Emulator; workspace: TempWorkspace } {
  const fixture = {} as { emulator: Emulator; workspace: TempWorkspace };
  before(async () => {
    fixture.emulator = await startEmulator({ port: 0 });
  });
  after(() => fixture.emulator.close());
  beforeEach(() => {
    fixture.emulator.reset();
    fixture.workspace = new TempWorkspace();
    for (const [path, text] of Object.entries(files)) fixture.workspace.write(path, text);
  });
  afterEach(() => fixture.workspace.dispose());
  return fixture;
}
