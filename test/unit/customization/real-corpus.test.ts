// Issue 38's real corpus: 209 customisation files of ten public repositories (fixtures/corpus/SOURCES.md: custom agents
// of Copilot and Claude Code, skills, instructions files, prompt files, hook files), each fed through the loader of its
// kind and compared with what its own agent does with it. The expectation is read here from the file itself, by a second
// reader: js-yaml (a full YAML parser, not our frontMatter.ts) for the front matter and JSON.parse for hook files, and
// the agent's documented rules written out below, never from our loader's output. A file our loader reads otherwise is
// listed in EXCEPTIONS with the reason, and the test checks that the exception still holds.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { mapToolNames } from '../../../src/agent/common/engine/agentTools';
import { findCustomAgents, parseCustomAgent } from '../../../src/customization/common/customAgents';
import { parseClaudeHooks, parseCopilotHooks, type HookCommand } from '../../../src/customization/common/hookConfig';
import { applyToOf, findInstructionFiles, readApplyTo } from '../../../src/customization/common/instructionFiles';
import { findPromptFiles, parsePromptFile } from '../../../src/customization/common/promptFiles';
import { parseSkillFrontMatter } from '../../../src/customization/common/skillFrontMatter';
import { findSkills } from '../../../src/customization/common/skills';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';

const CORPUS = join(__dirname, 'fixtures', 'corpus');

/** js-yaml: eslint's own YAML reader, a real second parser (no types installed, so its one call is typed here). */
const yaml = createRequire(join(__dirname, 'real-corpus.test.ts'))('js-yaml') as { load: (text: string) => unknown };

type Kind = 'agents' | 'claude-agents' | 'skills' | 'instructions' | 'prompts' | 'hooks';
interface Source {
  /** Under fixtures/corpus. */
  file: string;
  repo: string;
  commit: string;
  /** In its repository: the workspace path the loaders are given. */
  path: string;
  licence: string;
  kind: Kind;
  agent: 'copilot' | 'claude';
}

const SOURCES = JSON.parse(readFileSync(join(CORPUS, 'sources.json'), 'utf8')) as Source[];

/**
 * The files our loaders read otherwise than their own agent, each with the reason (checked below: an exception that no
 * longer holds fails the test, so the list cannot go stale).
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  // Claude Code parses front matter as YAML and does not load an agent whose front matter is not YAML
  // (anthropics/claude-code#91871, "Failed to parse YAML frontmatter"; diet103/claude-code-infrastructure-showcase#20):
  // these descriptions hold `Triggers on: 'a', 'b'`, a `: ` inside a plain scalar, which YAML refuses. Our reader takes
  // the line as the text, as Copilot's lenient reader does: the agent is offered with its whole description.
  'voltagent-subagents/claude-agents/08-business-product/assumption-mapping.md':
    "not YAML (`: ` inside a plain description): Claude Code refuses the file, our reader takes the description's line",
  'voltagent-subagents/claude-agents/10-research-analysis/ab-test-analysis.md':
    "not YAML (`: ` inside a plain description): Claude Code refuses the file, our reader takes the description's line",
  // Copilot (CLI) runs agentStop, subagentStart, subagentStop, preCompact hooks; this extension has no such events, and
  // `stop` / `userPromptSubmit` are VS Code's (Claude-style) spellings it does not take in a Copilot file either. The
  // five events it has are read as Copilot reads them; each other event is one note, never a failed file.
  'hve-core/hooks/shared/telemetry.json':
    'six of its eleven events (agentStop, subagentStart, subagentStop, preCompact, stop, userPromptSubmit) are not events of this extension: noted, not run',
  // Copilot lets microsoft/vscode's cloud-sandbox setup hook (an `npm ci` and more) run 30 minutes; this extension stops
  // any hook after 30 s, whatever its file asks (hookConfig's maxTimeoutMs): a bound on workspace content, kept.
  'vscode/hooks/cloud-sandbox.json': 'its sessionStart hook asks for a 1,800 s timeout; here every hook is stopped after 30 s',
  // Copilot CLI reads a preToolUse `matcher` (a regular expression over its own tool names: edit, create, view…). Ours
  // does not read one in a Copilot file: the hook runs before every tool, so no check the file asks for is skipped.
  'navikt-copilot/hooks/copilot-hooks.json':
    "its preToolUse `matcher` (Copilot's tool names) is not read: the hook runs before every tool, a wider net, never a narrower one",
};

/** The events this extension runs, by each agent's own name for them (hookConfig.ts follows these lists). */
const COPILOT_EVENTS: Readonly<Record<string, HookCommand['event']>> = {
  sessionStart: 'sessionStart',
  sessionEnd: 'sessionEnd',
  userPromptSubmitted: 'userPromptSubmitted',
  preToolUse: 'preToolUse',
  postToolUse: 'postToolUse',
};
const CLAUDE_EVENTS: Readonly<Record<string, HookCommand['event']>> = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  Stop: 'stop',
};
/** Every event each agent runs (its documentation's list), to tell a missed event from a name its agent does not know. */
const COPILOT_AGENT_EVENTS: ReadonlySet<string> = new Set([
  ...Object.keys(COPILOT_EVENTS),
  'agentStop',
  'subagentStart',
  'subagentStop',
  'errorOccurred',
  'preCompact',
  'notification',
  'permissionRequest',
]);
const CLAUDE_AGENT_EVENTS: ReadonlySet<string> = new Set([...Object.keys(CLAUDE_EVENTS), 'UserPromptSubmit', 'Notification', 'SubagentStop', 'PreCompact']);
/** VS Code: Claude Code's names, and lower-case ones converted (`userPromptSubmit`, `stop`…). */
const VS_CODE_AGENT_EVENTS: ReadonlySet<string> = new Set(
  ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'].flatMap((name) => [
    name,
    name.charAt(0).toLowerCase() + name.slice(1),
  ]),
);
/** The longest a hook may run here, whatever its file asks (hookConfig's bound); below it, the file's own time. */
const MAX_HOOK_MS = 30_000;

function text(source: Source): string {
  return readFileSync(join(CORPUS, source.file), 'utf8');
}

/** The front matter as YAML reads it: undefined without one, an Error when it is not YAML. */
function frontMatter(content: string): Record<string, unknown> | undefined | Error {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0].trim() !== '---') return undefined;
  const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  try {
    const value = yaml.load(lines.slice(1, end).join('\n'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A description as a listing shows it: whitespace runs made one space. */
function oneLine(value: unknown): string | undefined {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : undefined;
}

/** `reviewer` of `…/reviewer.agent.md`, `…/reviewer.md`, `…/reviewer.prompt.md`: each agent's fallback name. */
function stem(path: string): string {
  return path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/\.(agent|prompt)\.md$/, '')
    .replace(/\.md$/, '');
}

/** A tools value: Copilot's YAML list, or Claude Code's comma-separated text (`Read, Grep, Bash`). */
function toolList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** Our tools that let an agent change files or run commands, and the names in either agent's words that grant them. */
const WRITES = new Set(['edit_file', 'write_file']);
const RUNS = new Set(['run_command']);
const GRANTS_WRITE = /^(\*|Edit|MultiEdit|Write|edit(\/.*)?|editFiles|createFile)$/i;
const GRANTS_RUN = /^(\*|Bash(\(.*\))?|execute|execute\/(\*|runInTerminal)|runInTerminal|runCommands(\/.*)?|terminal)$/i;
const BUILT_INS = [
  'read_file',
  'list_files',
  'search_text',
  'code_navigation',
  'get_problems',
  'edit_file',
  'write_file',
  'run_command',
  'command_output',
  'update_plan',
];

/** Globs of an applyTo text, split at commas outside braces and brackets (VS Code's glob-aware split). */
function globsOf(value: string | string[]): string[] {
  const globs: string[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    let depth = 0;
    let current = '';
    for (const c of item) {
      if (c === '{' || c === '[') depth++;
      if ((c === '}' || c === ']') && depth > 0) depth--;
      if (c === ',' && depth === 0) {
        globs.push(current);
        current = '';
      } else current += c;
    }
    globs.push(current);
  }
  return globs.map((glob) => glob.trim()).filter((glob) => glob !== '');
}

const of = (kind: Kind) => SOURCES.filter((source) => source.kind === kind);

describe('the real corpus', () => {
  test('at least 150 files of at least three repositories, each with a commit and a permissive licence, none of github/awesome-copilot', () => {
    assert.ok(SOURCES.length >= 150, `${SOURCES.length} files`);
    assert.ok(new Set(SOURCES.map((source) => source.repo)).size >= 3);
    for (const source of SOURCES) {
      assert.match(source.commit, /^[0-9a-f]{40}$/, source.file);
      assert.ok(['MIT', 'Apache-2.0'].includes(source.licence), source.file);
      assert.notEqual(source.repo, 'github/awesome-copilot');
      assert.ok(text(source).length > 0, source.file);
    }
    assert.ok(of('agents').length + of('claude-agents').length >= 60);
    assert.ok(of('claude-agents').length >= 20 && of('agents').length >= 20);
    assert.ok(of('skills').length >= 40);
    assert.ok(of('instructions').length >= 20);
    assert.ok(of('prompts').length > 0 && of('hooks').length > 0);
    for (const file of Object.keys(EXCEPTIONS)) {
      assert.ok(
        SOURCES.some((source) => source.file === file),
        `${file}: an exception for a file not in the corpus`,
      );
    }
  });

  test("custom agents (Copilot's *.agent.md, Claude Code's agents/*.md): accepted with the name, description, tools and model their agent reads", () => {
    for (const source of [...of('agents'), ...of('claude-agents')]) {
      const content = text(source);
      const fields = frontMatter(content);
      const agent = parseCustomAgent(source.path, content);
      assert.ok(typeof agent === 'object', `${source.file}: refused (${String(agent)})`);
      assert.equal(fields instanceof Error, EXCEPTIONS[source.file] !== undefined, `${source.file}: an exception that no longer holds, or a new one`);
      if (fields instanceof Error || fields === undefined) {
        // Listed: Claude Code refuses it (not YAML); ours accepts it with the name its line gives.
        assert.ok(EXCEPTIONS[source.file], `${source.file}: its front matter is not YAML (${String(fields)}), and no exception says so`);
        assert.equal(agent.name, stem(source.path));
        continue;
      }
      // Claude Code requires `name`; Copilot falls back to the file's name.
      const name = source.agent === 'claude' ? fields.name : (fields.name ?? stem(source.path));
      assert.equal(typeof name, 'string', `${source.file}: no name, which its agent requires`);
      assert.equal(agent.name, String(name).replace(/\s+/g, ' ').trim(), source.file);
      assert.equal(agent.description, oneLine(fields.description)?.slice(0, 1024), source.file);
      assert.deepEqual(agent.tools, toolList(fields.tools), `${source.file}: tools`);
      // `model`: one name or Copilot's list of choices in order; Claude Code's `inherit` is the session's model, as no model is.
      const model = Array.isArray(fields.model) ? fields.model.map(String).join(', ') : (fields.model as string | undefined);
      assert.equal(agent.model, model === 'inherit' ? undefined : model, `${source.file}: model`);
      assert.ok(agent.instructions.length > 0, source.file);
      if (agent.tools !== undefined) {
        // Every name is mapped or noted as unknown, and a list never grants writing or running that no name asks for.
        const mapped = mapToolNames(agent.tools, { builtIns: BUILT_INS });
        for (const unknown of mapped.unknown) assert.ok(agent.tools.includes(unknown), `${source.file}: ${unknown}`);
        if (mapped.tools.some((tool) => WRITES.has(tool)))
          assert.ok(
            agent.tools.some((tool) => GRANTS_WRITE.test(tool.trim())),
            `${source.file}: writing granted by ${agent.tools.join(', ')}`,
          );
        if (mapped.tools.some((tool) => RUNS.has(tool)))
          assert.ok(
            agent.tools.some((tool) => GRANTS_RUN.test(tool.trim())),
            `${source.file}: commands granted by ${agent.tools.join(', ')}`,
          );
      }
    }
  });

  test("an unknown tool is noted, not widened: microsoft/vscode's my-agent names `edit`, `runCommands` and `dddd`", () => {
    const source = SOURCES.find((item) => item.file === 'vscode/agents/my-agent.agent.md');
    assert.ok(source);
    const agent = parseCustomAgent(source.path, text(source));
    assert.ok(typeof agent === 'object', String(agent));
    assert.equal(agent.name, 'hello world');
    const mapped = mapToolNames(agent.tools ?? [], { builtIns: BUILT_INS });
    assert.deepEqual(mapped.unknown, ['dddd']);
    assert.deepEqual([...mapped.tools].sort(), ['command_output', 'edit_file', 'run_command', 'write_file']);
  });

  test('skills (SKILL.md): accepted with the name and description the open format requires', () => {
    for (const source of of('skills')) {
      const content = text(source);
      const fields = frontMatter(content);
      assert.ok(fields !== undefined && !(fields instanceof Error), `${source.file}: ${String(fields)}`);
      // The format: a name of lowercase letters, digits and hyphens, its folder's; a description of what it does and when.
      assert.match(String(fields.name), /^[a-z0-9-]{1,64}$/, source.file);
      assert.equal(fields.name, source.path.split('/').at(-2), source.file);
      const skill = parseSkillFrontMatter(content);
      assert.ok(skill.ok, `${source.file}: refused (${skill.ok ? '' : skill.problem})`);
      assert.equal(skill.name, fields.name, source.file);
      assert.equal(skill.description.replace(/\s+/g, ' ').trim(), oneLine(fields.description)?.slice(0, 1024).trim(), source.file);
    }
  });

  test("instructions files: applied to the files their applyTo globs name, always for '**', and not at all without applyTo (as Copilot)", () => {
    for (const source of of('instructions')) {
      const content = text(source);
      const fields = frontMatter(content);
      assert.ok(fields !== undefined && !(fields instanceof Error), `${source.file}: ${String(fields)}`);
      const value = applyToOf(content);
      if (fields.applyTo === undefined) {
        // Copilot applies such a file only when it is attached by hand: ours leaves it out with a note.
        assert.equal(value, undefined, source.file);
        continue;
      }
      assert.ok(value !== undefined, `${source.file}: applyTo not found`);
      const expected = globsOf(Array.isArray(fields.applyTo) ? fields.applyTo.map(String) : String(fields.applyTo));
      const read = readApplyTo(value);
      assert.ok(read.ok, `${source.file}: refused (${read.ok ? '' : read.problem})`);
      assert.equal(read.written, expected.join(', '), source.file);
      assert.equal(
        read.always,
        expected.some((glob) => ['*', '**', '**/*'].includes(glob)),
        source.file,
      );
      // A glob of the `**/*.ext` kind applies to such a file at any depth, and not to one of another kind.
      for (const glob of expected.filter((glob) => /^\*\*\/\*\.[A-Za-z0-9]+$/.test(glob))) {
        assert.equal(read.matches(`deep/er/file${glob.slice(3)}`), true, `${source.file}: ${glob}`);
      }
      if (!read.always) assert.equal(read.matches('no-such-folder/file.unmatched-kind'), false, source.file);
    }
  });

  test('prompt files: accepted with the name, description, tools and model VS Code reads, run in the mode its `agent` (or `mode`) asks', () => {
    for (const source of of('prompts')) {
      const content = text(source);
      const fields = frontMatter(content) ?? {};
      assert.ok(!(fields instanceof Error), `${source.file}: ${String(fields)}`);
      const prompt = parsePromptFile(source.path, content);
      assert.ok(typeof prompt === 'object', `${source.file}: refused (${String(prompt)})`);
      // VS Code: `name` (else the file's name) is what is typed after `/`.
      assert.equal(prompt.name, fields.name ?? stem(source.path), source.file);
      assert.equal(prompt.description, oneLine(fields.description)?.slice(0, 1024), source.file);
      assert.equal(prompt.argumentHint, oneLine(fields['argument-hint'])?.slice(0, 200), source.file);
      assert.equal(prompt.model, fields.model, source.file);
      assert.deepEqual(prompt.tools, toolList(fields.tools), source.file);
      // `agent` (formerly `mode`): ask and edit are chat answers here, agent an agent session, any other name that custom
      // agent's session; without it, a file naming tools runs as an agent, else as a chat answer.
      const asked = (fields.agent ?? fields.mode) as string | undefined;
      const chat = asked !== undefined ? ['ask', 'edit', 'chat'].includes(asked.toLowerCase()) : fields.tools === undefined;
      assert.equal(prompt.mode, chat ? 'ask' : 'agent', source.file);
      const custom = asked !== undefined && !['ask', 'edit', 'chat', 'agent'].includes(asked.toLowerCase()) ? asked : undefined;
      assert.equal(prompt.agent, custom, source.file);
      assert.ok(prompt.body.length > 0, source.file);
    }
  });

  test("hook files (Copilot's and VS Code's .github/hooks/*.json, Claude Code's hooks.json): every command its agent runs on Linux and this extension has the event of, with its line and time", () => {
    for (const source of of('hooks')) {
      const content = text(source);
      const root = JSON.parse(content) as { version?: number; hooks: Record<string, Record<string, unknown>[]> };
      // Copilot (CLI, cloud agent): `"version": 1`. VS Code reads the same folder's files without a version as its own.
      const rules = source.agent === 'claude' ? 'claude' : root.version === 1 ? 'copilot' : 'vscode';
      const expected: { event: string; command: string; timeoutMs: number; matcher?: string; format: string }[] = [];
      const unsupported: string[] = [];
      let skipped = 0;
      const seconds = (value: unknown, otherwise: number) => Math.min(MAX_HOOK_MS, (typeof value === 'number' ? value : otherwise) * 1000);
      for (const [name, entries] of Object.entries(root.hooks)) {
        // VS Code takes Claude Code's names, and Copilot's lower-case ones converted (`preToolUse` is `PreToolUse`).
        const event =
          rules === 'copilot' ? COPILOT_EVENTS[name] : rules === 'claude' ? CLAUDE_EVENTS[name] : CLAUDE_EVENTS[name.charAt(0).toUpperCase() + name.slice(1)];
        if (event === undefined) {
          unsupported.push(name);
          continue;
        }
        for (const entry of entries) {
          if (rules === 'claude' || Array.isArray(entry.hooks)) {
            // Claude Code: matcher groups of command hooks, `timeout` in seconds (default 60); `*` or none is every tool.
            const matcher = entry.matcher === undefined || entry.matcher === '' || entry.matcher === '*' ? undefined : String(entry.matcher);
            for (const hook of entry.hooks as Record<string, unknown>[]) {
              expected.push({ event, command: String(hook.command), timeoutMs: seconds(hook.timeout, 60), ...(matcher ? { matcher } : {}), format: 'claude' });
            }
          } else if (rules === 'copilot') {
            // Copilot: `type: "command"` and, on Linux, the `bash` line (or `command`, as newer files write it); a
            // `powershell` line alone runs only on Windows. `timeoutSec`, default 30.
            // An empty line (microsoft/vscode's placeholders) runs nothing there; here it is noted and not run.
            const line = entry.bash ?? entry.command;
            if (entry.type !== 'command' || typeof line !== 'string' || line.trim() === '') skipped++;
            else expected.push({ event, command: line, timeoutMs: seconds(entry.timeoutSec, 30), format: 'copilot' });
          } else {
            // VS Code on Linux: `type: "command"`; the `linux` override, else `bash` (VS Code reads it as the Linux and
            // macOS override), else `command` (each a non-empty text, else absent); `timeout` (its docs' examples also
            // write `timeoutSec`), default 30.
            const text = (key: string) => (typeof entry[key] === 'string' && entry[key] !== '' ? entry[key] : undefined);
            const line = text('linux') ?? text('bash') ?? text('command');
            if (entry.type !== 'command' || typeof line !== 'string' || line.trim() === '') skipped++;
            else expected.push({ event, command: line, timeoutMs: seconds(entry.timeout ?? entry.timeoutSec, 30), format: 'claude' });
          }
        }
      }
      const parsed = source.agent === 'copilot' ? parseCopilotHooks(content, source.path, { platform: 'linux' }) : parseClaudeHooks(content, source.path);
      assert.deepEqual(
        parsed.hooks.map((hook) => ({
          event: hook.event,
          command: hook.command,
          timeoutMs: hook.timeoutMs,
          ...(hook.matcher ? { matcher: hook.matcher } : {}),
          format: hook.format,
        })),
        expected,
        source.file,
      );
      // What its agent does not run, and an event this extension does not have, is one note each.
      assert.equal(parsed.notes.length, unsupported.length + skipped, `${source.file}: ${parsed.notes.join(' | ')}`);
      for (const name of unsupported)
        assert.ok(
          parsed.notes.some((note) => note.includes(JSON.stringify(name))),
          `${source.file}: ${name}`,
        );
      // Only an event that its agent runs and this extension does not have is an exception (1Password's `PreToolUse` is no
      // Copilot event: Copilot does not run it either).
      const agentEvents = rules === 'copilot' ? COPILOT_AGENT_EVENTS : rules === 'claude' ? CLAUDE_AGENT_EVENTS : VS_CODE_AGENT_EVENTS;
      const missed = unsupported.filter((name) => agentEvents.has(name));
      assert.equal(missed.length > 0, EXCEPTIONS[source.file]?.includes('not events of this extension') ?? false, `${source.file}: ${missed.join(', ')}`);
      // A hook that asks for longer than this extension lets any hook run is cut at that bound: listed.
      const longest = Math.max(
        0,
        ...Object.values(root.hooks).flatMap((entries) =>
          entries.flatMap((entry) =>
            [entry, ...((entry.hooks as Record<string, unknown>[] | undefined) ?? [])].map((hook) => Number(hook.timeoutSec ?? hook.timeout ?? 0)),
          ),
        ),
      );
      assert.equal(longest * 1000 > MAX_HOOK_MS, EXCEPTIONS[source.file]?.includes('timeout') ?? false, `${source.file}: ${longest} s`);
      const hasMatcher = rules === 'copilot' && Object.values(root.hooks).some((entries) => entries.some((entry) => entry.matcher !== undefined));
      assert.equal(hasMatcher, EXCEPTIONS[source.file]?.includes('`matcher`') ?? false, source.file);
    }
  });

  test('the finders, given the files where their agents keep them, find every one the parsers accept (bounds, guards and names included)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gateway-corpus-'));
    const signal = new AbortController().signal;
    try {
      const put = (path: string, source: Source) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), readFileSync(join(CORPUS, source.file)));
      };
      const base = (source: Source) => source.file.slice(source.file.lastIndexOf('/') + 1);
      // Each file in its agent's folder: Copilot's in .github, Claude Code's in .claude; a name used twice gets its repository's.
      const used = new Set<string>();
      const unique = (folder: string, source: Source, name: string) => {
        const path = used.has(`${folder}/${name}`) ? `${folder}/${source.file.split('/')[0]}-${name}` : `${folder}/${name}`;
        used.add(path);
        return path;
      };
      for (const source of of('agents')) put(unique('.github/agents', source, base(source)), source);
      for (const source of of('claude-agents')) put(unique('.claude/agents', source, base(source)), source);
      for (const source of of('prompts')) put(unique('.github/prompts', source, base(source)), source);
      for (const source of of('instructions')) put(unique('.github/instructions', source, base(source)), source);
      for (const source of of('skills')) {
        const folder = source.agent === 'claude' ? '.claude/skills' : '.github/skills';
        put(`${unique(folder, source, source.path.split('/').at(-2) ?? '')}/SKILL.md`, source);
      }
      const files = new NodeWorkspaceFiles(root);
      const agents = await findCustomAgents({ files, protectedFiles: [] }, signal);
      // Names as their agents read them (a name used twice: the first wins, the second is one note).
      const names = [...of('agents'), ...of('claude-agents')].map((source) => {
        const fields = frontMatter(text(source));
        const name = fields instanceof Error || fields === undefined ? undefined : fields.name;
        return String(name ?? stem(source.path))
          .replace(/\s+/g, ' ')
          .trim()
          .toLowerCase();
      });
      const twice = names.length - new Set(names).size;
      assert.equal(agents.items.length, names.length - twice, agents.notes.join('\n'));
      assert.equal(agents.notes.length, twice, agents.notes.join('\n'));
      for (const note of agents.notes) assert.match(note, /came first/);
      const prompts = await findPromptFiles({ files, protectedFiles: [] }, signal);
      assert.deepEqual([prompts.items.length, prompts.notes], [of('prompts').length, []]);
      const instructions = await findInstructionFiles(files, [], signal);
      const withoutApplyTo = of('instructions').filter((source) => {
        const fields = frontMatter(text(source));
        return fields !== undefined && !(fields instanceof Error) && fields.applyTo === undefined;
      });
      assert.equal(instructions.files.length, of('instructions').length - withoutApplyTo.length, instructions.notes.join('\n'));
      assert.equal(instructions.notes.length, withoutApplyTo.length === 0 ? 0 : 1, instructions.notes.join('\n'));
      const skills = await findSkills(files, [], signal);
      assert.deepEqual([skills.skills.length, skills.notes], [of('skills').length, []]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
