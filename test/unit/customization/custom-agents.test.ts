// Prompt files and custom agents: parsing (well-formed, malformed, hostile), finding them in real folders,
// tool names mapped and narrowed, the model a file names, and a session as a custom agent over real HTTP.
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readFrontMatter } from '../../../src/customization/common/frontMatter';
import { agentMention, findCustomAgents, mentionOf, parseCustomAgent } from '../../../src/customization/common/customAgents';
import { expandPrompt, findPromptFiles, parsePromptCall, parsePromptFile, type PromptFile } from '../../../src/customization/common/promptFiles';
import { limitTools, mapToolNames } from '../../../src/agent/common/engine/agentTools';
import { agentStartNotes, instructionsWith, modelNamed, promptSessionAgent, sessionAgentOf } from '../../../src/agent/common/engine/sessionAgent';
import { parseSavedSessionText } from '../../../src/sessionModel/common/savedSession';
import { findWorkspaceAgentFiles } from '../../../src/customization/common/workspaceAgentFiles';
import { toolsFor } from '../../../src/tools/common/registry';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { AGENT_INSTRUCTIONS } from '../../../src/customization/common/instructions';
import { makeEngine, runToEnd, startSession, TempWorkspace, useEmulatorAndWorkspace } from '../helpers/agent';

const signal = new AbortController().signal;
const BUILT_INS = toolsFor(true).map((tool) => tool.name);
const CATALOG = { builtIns: BUILT_INS };
const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('the front-matter reader: lists', () => {
  test('flow, block and comma lists; a nested or unclosed one is a problem', () => {
    const read = (tools: string) => readFrontMatter(`---\n${tools}\n---\nbody`, { scalars: [], lists: ['tools'] });
    const tools = (text: string) => {
      const parsed = read(text);
      return parsed.ok ? parsed.fields.get('tools') : parsed.problem;
    };
    assert.deepEqual(tools('tools: [\'read\', "edit", search]'), ['read', 'edit', 'search']);
    assert.deepEqual(tools('tools:\n  - Read\n  - Grep # a comment\n- Bash'), ['Read', 'Grep', 'Bash']);
    assert.deepEqual(tools('tools: Read, Grep, Glob'), ['Read', 'Grep', 'Glob']);
    assert.deepEqual(tools('tools: []'), []);
    assert.match(String(tools('tools: [a, [b]]')), /not a list of names/);
    assert.match(String(tools('tools: [a, b')), /not a list of names/);
    assert.match(String(tools('tools:\n  key: value')), /not a list of names/);
    const parsed = read('tools: [a]');
    assert.ok(parsed.ok && parsed.body === 'body');
  });

  test("issue 38: a real list of 160 tools (microsoft/hve-core's accessibility-planner) is read whole; past 1,024 items it is a problem, never cut", () => {
    const file = join(__dirname, 'fixtures', 'corpus', 'hve-core', 'agents', 'accessibility', 'accessibility-planner.agent.md');
    const agent = parseCustomAgent('.github/agents/accessibility/accessibility-planner.agent.md', readFileSync(file, 'utf8'));
    assert.ok(typeof agent === 'object', String(agent));
    assert.equal(agent.tools?.length, 160);
    assert.equal(agent.tools?.at(-1), 'ado/work_update_team_capacity');
    const many = (count: number) =>
      readFrontMatter(`---\ntools: [${Array.from({ length: count }, (_, i) => `t${i}`).join(', ')}]\n---\nbody`, { scalars: [], lists: ['tools'] });
    const read = many(1024);
    assert.ok(read.ok && read.fields.get('tools')?.length === 1024);
    const past = many(1025);
    assert.ok(!past.ok && /more than 1024/.test(past.problem), JSON.stringify(past));
  });
});

const agentFile = (front: string, body = 'Review the diff. Never edit.') => `---\n${front}\n---\n\n${body}\n`;

describe('custom agents', () => {
  test("Copilot's and Claude Code's files: name (or the file's), description, tools, model, the body as instructions", () => {
    assert.deepEqual(parseCustomAgent('.github/agents/reviewer.agent.md', agentFile("description: Reviews code\ntools: ['read', 'search']\nmodel: GPT-4.1")), {
      name: 'reviewer',
      description: 'Reviews code',
      tools: ['read', 'search'],
      model: 'GPT-4.1',
      instructions: 'Review the diff. Never edit.',
      path: '.github/agents/reviewer.agent.md',
    });
    const claude = parseCustomAgent('.claude/agents/x.md', agentFile('name: test-runner\ndescription: Runs tests\ntools: Bash, Read\nmodel: inherit'));
    assert.ok(typeof claude !== 'string');
    assert.deepEqual([claude.name, claude.tools, claude.model], ['test-runner', ['Bash', 'Read'], undefined]);
    const noTools = parseCustomAgent('.claude/agents/all.md', agentFile('name: all\ndescription: Everything'));
    assert.ok(typeof noTools !== 'string' && noTools.tools === undefined, 'no tools named: every tool');
  });

  test('issue 38: a tools list that starts on the next line, and a model given as a list (the first available wins)', () => {
    const flow = parseCustomAgent(
      '.github/agents/a.agent.md',
      agentFile("description: d\ntools:\n  ['read', 'search']\nmodel:\n  - Claude Sonnet 4.5\n  - GPT-4.1"),
    );
    assert.ok(typeof flow !== 'string', String(flow));
    assert.deepEqual(flow.tools, ['read', 'search']);
    assert.equal(flow.model, 'Claude Sonnet 4.5, GPT-4.1');
    const ids = ['openai/gpt-4.1', 'gw-fast'];
    assert.equal(modelNamed(flow.model!, ids), 'openai/gpt-4.1');
    assert.equal(modelNamed('Claude Sonnet 4.5, GPT-4.1', ['anthropic/claude-sonnet-4.5', 'openai/gpt-4.1']), 'anthropic/claude-sonnet-4.5');
    const inline = parseCustomAgent('.github/agents/b.agent.md', agentFile("description: d\nmodel: ['GPT-5', 'gw-fast']"));
    assert.ok(typeof inline !== 'string', String(inline));
    assert.equal(modelNamed(inline.model!, ids), 'gw-fast');
  });

  test('malformed files are problems in words; long instructions are cut with a note', () => {
    assert.match(String(parseCustomAgent('.claude/agents/a.md', 'just text')), /does not start with front matter/);
    assert.match(String(parseCustomAgent('.claude/agents/a.md', agentFile('name: a'))), /no `description`/);
    assert.match(String(parseCustomAgent('.claude/agents/a.md', agentFile('name: a\ndescription: d', ''))), /no instructions/);
    assert.match(String(parseCustomAgent('.claude/agents/a.md', agentFile('name: a@b\ndescription: d'))), /not a name to type after @/);
    assert.match(String(parseCustomAgent('.claude/agents/a.md', agentFile('name: a\ndescription: d\ntools: {a: b}'))), /`tools` is not a list/);
    assert.match(String(parseCustomAgent('.claude/agents/a.md', '---\nname: a\u0000\n---\nx')), /not text/);
    const long = parseCustomAgent('.claude/agents/a.md', agentFile('name: a\ndescription: d', 'x'.repeat(20_000)));
    assert.ok(typeof long !== 'string');
    assert.match(long.instructions, /\(cut: \.claude\/agents\/a\.md has 20000 bytes; only the first 8192 are used\)$/);
  });

  test("issue 38: Copilot's todo set, and a set's unknown member grants nothing (not the whole set)", () => {
    const builtIns = ['read_file', 'list_files', 'run_command', 'command_output', 'update_plan', 'edit_file', 'write_file'];
    const mapped = mapToolNames(['execute/testFailure', 'read/terminalSelection', 'read/readFile', 'todo', 'edit/*'], { builtIns });
    assert.deepEqual(mapped.tools, ['read_file', 'update_plan', 'edit_file', 'write_file']);
    assert.deepEqual(mapped.unknown, ['execute/testFailure', 'read/terminalSelection']);
  });

  test('issue 38: a name with spaces is a name, typed quoted or as it is after @', () => {
    const spaced = parseCustomAgent('.github/agents/arch.agent.md', agentFile("name: 'Azure Principal Architect'\ndescription: d"));
    assert.ok(typeof spaced !== 'string', String(spaced));
    assert.equal(spaced.name, 'Azure Principal Architect');
    const names = ['Azure Principal Architect', 'Azure', 'reviewer'];
    assert.deepEqual(agentMention('@"Azure Principal Architect" plan it', names), { name: 'Azure Principal Architect', task: 'plan it' });
    assert.deepEqual(agentMention("@'azure principal architect'", []), { name: 'azure principal architect', task: '' });
    assert.deepEqual(agentMention('@azure principal architect plan it', names), { name: 'Azure Principal Architect', task: 'plan it' });
    assert.deepEqual(agentMention('@Azure plan it', names), { name: 'Azure', task: 'plan it' });
    assert.deepEqual(agentMention('@Azure Principal plan it', names), { name: 'Azure', task: 'Principal plan it' });
    assert.equal(mentionOf('Azure Principal Architect'), '@"Azure Principal Architect"');
    assert.equal(mentionOf('reviewer'), '@reviewer');
  });

  test('`@name task` names an agent; other text does not', () => {
    assert.deepEqual(agentMention('@reviewer check the diff'), { name: 'reviewer', task: 'check the diff' });
    assert.deepEqual(agentMention('  @reviewer'), { name: 'reviewer', task: '' });
    assert.equal(agentMention('email me@example.com'), undefined);
  });
});

describe('finding them in real folders, hostile files included', () => {
  test('both anchors, the first of a name winning; huge, binary, a symlink out, protected, a hard link: each one log line', async () => {
    const workspace = new TempWorkspace();
    const outside = mkdtempSync(join(tmpdir(), 'gateway-agents-outside-'));
    try {
      workspace.write('.github/agents/reviewer.agent.md', agentFile('description: Reviews'));
      // VS Code "detects any .md files in the .github/agents folder" as custom agents (microsoft/vscode's own data.md,
      // engineering.md, sessions.md are): an agent with front matter is one, a note without it is noted (issue 38 corpus).
      workspace.write('.github/agents/data.md', agentFile('name: Data\ndescription: Answers telemetry questions'));
      workspace.write('.github/agents/notes.md', 'not an agent file: noted');
      workspace.write('.claude/agents/reviewer.md', agentFile('name: reviewer\ndescription: Another'));
      workspace.write('.claude/agents/tester.md', agentFile('name: tester\ndescription: Tests\ntools: Bash'));
      workspace.write('.claude/agents/huge.md', agentFile('name: huge\ndescription: d', 'x'.repeat(70 * 1024)));
      workspace.write('.claude/agents/binary.md', '---\nname: bin\u0000\n---\n');
      writeFileSync(join(outside, 'out.md'), agentFile('name: out\ndescription: From outside'));
      symlinkSync(join(outside, 'out.md'), join(workspace.root, '.claude/agents/out.md'));
      workspace.write('.env', agentFile('name: secret\ndescription: API_KEY=sk-live-123'));
      symlinkSync(join(workspace.root, '.env'), join(workspace.root, '.claude/agents/env.md'));
      workspace.write('.github/prompts/hard.txt', '---\ndescription: hard\n---\nHard-linked prompt.');
      linkSync(join(workspace.root, '.github/prompts/hard.txt'), join(workspace.root, '.github/prompts/hard.prompt.md'));
      workspace.write('.github/prompts/ok.prompt.md', 'Say hello.');
      workspace.write('.github/prompts/.env.prompt.md', 'protected by name');
      mkdirSync(join(workspace.root, '.github/prompts/dir.prompt.md'));
      const warnings: string[] = [];
      const files = new NodeWorkspaceFiles(workspace.root);
      const found = await findWorkspaceAgentFiles(
        { files, protectedFiles: defaultProtectedFiles, settings: { projectInstructions: true }, logger: { ...silent, warn: (m: string) => warnings.push(m) } },
        signal,
      );
      assert.deepEqual(
        found.agents.map((a) => [a.name, a.path]),
        [
          ['Data', '.github/agents/data.md'],
          ['reviewer', '.github/agents/reviewer.agent.md'],
          ['tester', '.claude/agents/tester.md'],
        ],
      );
      assert.deepEqual(
        found.prompts.map((p) => p.name),
        ['ok'],
      );
      const log = warnings.join('\n');
      assert.match(log, /^Custom agent \.claude\/agents\/reviewer\.md: skipped, an agent named "reviewer" came first\.$/m);
      assert.match(log, /notes\.md: skipped, it does not start with front matter/);
      assert.match(log, /huge\.md: skipped, it has \d+ bytes \(more than 65536\)/);
      assert.match(log, /binary\.md: skipped, it is not text/);
      assert.match(log, /out\.md: skipped, it leads outside the workspace/);
      assert.match(log, /env\.md: skipped, it leads to a protected file/);
      assert.match(log, /^Prompt file \.github\/prompts\/hard\.prompt\.md: skipped, it has more than one name/m);
      assert.match(log, /\.env\.prompt\.md: skipped, it is a protected file/);
      assert.equal(warnings.length, 8, log);
      assert.doesNotMatch(JSON.stringify(found) + log, /sk-live|From outside/);
      const off = await findWorkspaceAgentFiles(
        { files, protectedFiles: defaultProtectedFiles, settings: { projectInstructions: false }, logger: silent },
        signal,
      );
      assert.deepEqual(off, { agents: [], prompts: [] }, 'gateway.agent.projectInstructions off reads none');
    } finally {
      workspace.dispose();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('the count per folder is bounded', async () => {
    const workspace = new TempWorkspace();
    try {
      for (let i = 0; i < 6; i++) workspace.write(`.claude/agents/a${i}.md`, agentFile(`name: a${i}\ndescription: d`));
      const found = await findCustomAgents(
        { files: new NodeWorkspaceFiles(workspace.root), protectedFiles: [], limits: { maxFiles: 4, maxFileBytes: 1024 } },
        signal,
      );
      assert.equal(found.items.length, 4);
      assert.deepEqual(found.notes, ['.claude/agents/a4.md: skipped, past the first 4 files of .claude/agents']);
      const prompts = await findPromptFiles({ files: new NodeWorkspaceFiles(workspace.root), protectedFiles: [] }, signal);
      assert.deepEqual(prompts, { items: [], notes: [] }, 'no prompts folder: nothing, no note');
    } finally {
      workspace.dispose();
    }
  });
});

describe('prompt files', () => {
  const prompt = (text: string, path = '.github/prompts/review.prompt.md') => {
    const parsed = parsePromptFile(path, text);
    assert.ok(typeof parsed !== 'string', String(parsed));
    return parsed;
  };

  test('front matter optional; mode (or agent) decides agent or chat; tools alone mean agent', () => {
    assert.deepEqual(prompt('Explain ${file}.'), { name: 'review', mode: 'ask', body: 'Explain ${file}.', path: '.github/prompts/review.prompt.md' });
    const agent = prompt("---\ndescription: Review\nmode: agent\nmodel: gw-fast\ntools: ['read']\nargument-hint: a file\n---\nReview ${input:target}.");
    assert.deepEqual([agent.mode, agent.model, agent.tools, agent.description, agent.argumentHint], ['agent', 'gw-fast', ['read'], 'Review', 'a file']);
    assert.equal(prompt('---\nagent: agent\n---\nx').mode, 'agent');
    assert.equal(prompt('---\nmode: ask\ntools: [read]\n---\nx').mode, 'ask');
    assert.equal(prompt('---\ntools: [read]\n---\nx').mode, 'agent');
    assert.deepEqual([prompt('---\nagent: reviewer\n---\nx').mode, prompt('---\nagent: reviewer\n---\nx').agent], ['agent', 'reviewer']);
    assert.match(String(parsePromptFile('.github/prompts/a.prompt.md', '---\nmode: agent\n---\n')), /no prompt/);
    assert.match(String(parsePromptFile('.github/prompts/a.prompt.md', '---\nmode: agent\n')), /no closing/);
    assert.match(String(parsePromptFile('.github/prompts/a b.prompt.md', 'x')), /not one to type after \/prompt/);
  });

  test('the call: name, key=value inputs (quoted or not), the rest', () => {
    const call = parsePromptCall('review target=src/a.ts note="two words" and more text');
    assert.deepEqual(
      [call.name, [...call.inputs], call.rest],
      [
        'review',
        [
          ['target', 'src/a.ts'],
          ['note', 'two words'],
        ],
        'and more text',
      ],
    );
    assert.deepEqual(parsePromptCall('').name, '');
  });

  test('variables filled; the one input left takes the free text; the rest follows; unknown ones stay', () => {
    const file: PromptFile = {
      name: 'r',
      mode: 'ask',
      path: 'p',
      body: 'Review ${input:target:the file} in ${fileBasename} (${fileDirname}): ${selection}. ${unknown}',
    };
    const context = { file: 'src/deep/a.ts', selection: 'let x = 1;' };
    assert.deepEqual(expandPrompt(file, { inputs: new Map(), rest: 'src/b.ts' }, context), {
      text: 'Review src/b.ts in a.ts (src/deep): let x = 1;. ${unknown}',
      missing: [],
    });
    assert.deepEqual(expandPrompt(file, { inputs: new Map([['target', 'x']]), rest: 'also this' }, {}), {
      text: 'Review x in ${fileBasename} (${fileDirname}): ${selection}. ${unknown}\n\nalso this',
      missing: [],
    });
    assert.deepEqual(expandPrompt(file, { inputs: new Map(), rest: '' }, {}).missing, ['target']);
  });

  test('an agent-mode prompt: its own tools and model, or those of the agent it names (its own first)', () => {
    const reviewer = parseCustomAgent('.github/agents/reviewer.agent.md', agentFile("description: d\ntools: ['read']\nmodel: gw-code"));
    assert.ok(typeof reviewer !== 'string');
    assert.deepEqual(promptSessionAgent(prompt("---\nmode: agent\ntools: ['Grep', 'fetch']\n---\nx"), [], CATALOG), {
      kind: 'prompt',
      name: 'review',
      path: '.github/prompts/review.prompt.md',
      tools: ['search_text'],
      unknownTools: ['fetch'],
    });
    const asAgent = promptSessionAgent(prompt('---\nagent: reviewer\nmodel: gw-fast\n---\nx'), [reviewer], CATALOG);
    assert.ok(typeof asAgent !== 'string');
    assert.deepEqual([asAgent.kind, asAgent.name, asAgent.tools, asAgent.model], ['agent', 'reviewer', ['read_file', 'list_files'], 'gw-fast']);
    assert.match(String(promptSessionAgent(prompt('---\nagent: nobody\n---\nx'), [reviewer], CATALOG)), /does not have/);
  });
});

describe('tools and model of a session as an agent', () => {
  test("Copilot's and Claude Code's names map to ours; unknown ones are listed; * is every tool", () => {
    assert.deepEqual(mapToolNames(['read', 'search', 'edit/editFiles', 'runCommands', 'fetch', 'github/*'], CATALOG), {
      tools: ['read_file', 'list_files', 'search_text', 'code_navigation', 'edit_file', 'write_file', 'run_command', 'command_output'],
      unknown: ['fetch', 'github/*'],
      notEnabled: [],
    });
    assert.deepEqual(mapToolNames(['Read', 'Grep', 'Glob', 'Bash(npm test:*)', 'TodoWrite', 'WebFetch'], CATALOG), {
      tools: ['read_file', 'search_text', 'list_files', 'run_command', 'update_plan'],
      unknown: ['WebFetch'],
      notEnabled: [],
    });
    assert.deepEqual(mapToolNames(['*'], CATALOG).tools, [...BUILT_INS, 'run_subagent']);
    assert.deepEqual(
      limitTools(toolsFor(true), ['read_file', 'nonexistent']).map((tool) => tool.name),
      ['read_file'],
    );
    assert.equal(limitTools(toolsFor(true), undefined).length, BUILT_INS.length);
    assert.equal(limitTools(toolsFor(false), ['write_file']).length, 0, 'an agent list never adds what the workspace does not offer');
  });

  test('the model a file names: an id, a display name, a family; else none (and the session says which it uses)', () => {
    const ids = ['gw-code', 'gw-fast', 'anthropic/claude-sonnet-4', 'openai/gpt-4.1'];
    assert.equal(modelNamed('gw-fast', ids), 'gw-fast');
    assert.equal(modelNamed('GPT-4.1 (copilot)', ids), 'openai/gpt-4.1');
    assert.equal(modelNamed('Claude Sonnet 4', ids), 'anthropic/claude-sonnet-4');
    assert.equal(modelNamed('sonnet', ids), 'anthropic/claude-sonnet-4');
    assert.equal(modelNamed('opus', ids), undefined);
    assert.equal(modelNamed('', ids), undefined);
    const notes = agentStartNotes(
      { kind: 'agent', name: 'r', path: 'p', tools: ['read_file'], unknownTools: ['fetch'], model: 'opus' },
      { used: 'gw-code', found: false },
    );
    assert.deepEqual(notes, [
      'Agent "r" (p): tools read_file.',
      'Agent "r" names tools neither this extension nor VS Code has, left out: fetch.',
      'Agent "r" asks for the model "opus", which this key may not use; this session uses gw-code.',
    ]);
  });

  test('the saved session keeps the agent; a tampered tool list limits to nothing, never to everything', () => {
    const agent = { kind: 'agent', name: 'r', path: 'p', instructions: 'i', tools: ['read_file'] };
    const saved = (value: unknown) => parseSavedSessionText(JSON.stringify({ id: 's', status: 'paused', agent: value }))?.agent;
    assert.deepEqual(saved(agent), agent);
    assert.deepEqual(saved({ ...agent, tools: 'run_command' })?.tools, []);
    assert.deepEqual(saved({ ...agent, tools: [1, 'read_file'] })?.tools, ['read_file']);
    assert.equal(saved({ kind: 'other', name: 'r', path: 'p' }), undefined);
    assert.equal(saved(undefined), undefined);
  });
});

describe('a session as a custom agent, over real HTTP', () => {
  const fixture = useEmulatorAndWorkspace({
    '.github/agents/reviewer.agent.md': agentFile("description: Reviews\ntools: ['read', 'fetch']", 'You only review. Say REVIEWED.'),
    'a.txt': 'hello',
  });

  test('only its tools are sent, every request; its instructions too; a call to another tool is refused in words', async () => {
    const { emulator, workspace } = fixture;
    const custom = parseCustomAgent(
      '.github/agents/reviewer.agent.md',
      agentFile("description: Reviews\ntools: ['read', 'fetch']", 'You only review. Say REVIEWED.'),
    );
    assert.ok(typeof custom !== 'string');
    const state = startSession('review a.txt');
    state.agent = sessionAgentOf(custom, CATALOG);
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'pwned' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'REVIEWED' },
    ]);
    const { engine } = makeEngine({
      baseUrl: emulator.baseUrl,
      workspace,
      limitTools: (tools) => limitTools(tools, state.agent?.tools),
      instructions: instructionsWith(AGENT_INSTRUCTIONS, state.agent),
    });
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    const bodies = emulator.requests
      .filter((r) => r.path === '/v1/responses')
      .map((r) => r.body as { tools: { name: string }[]; instructions: string; input: unknown });
    assert.equal(bodies.length, 3);
    for (const body of bodies) {
      assert.deepEqual(
        body.tools.map((tool) => tool.name),
        ['read_file', 'list_files'],
      );
      assert.match(
        body.instructions,
        /You are the custom agent "reviewer" of this workspace \(\.github\/agents\/reviewer\.agent\.md\)\. Its instructions:\n\nYou only review\. Say REVIEWED\.$/,
      );
    }
    assert.match(JSON.stringify(bodies[1].input), /There is no tool named \\"write_file\\" in this session\. The tools are: read_file, list_files\./);
    assert.equal(readFileSync(join(workspace.root, 'a.txt'), 'utf8'), 'hello', 'the refused write did not happen');
  });
});
