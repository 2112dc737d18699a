// Skills (SKILL.md folders): the front-matter reader, finding them in real folders with hostile files, the bounded listing, and how a session sends it.
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { parseSkillFrontMatter } from '../../../src/customization/common/skillFrontMatter';
import { findSkills, skillListing, type Skill } from '../../../src/customization/common/skills';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator, type Emulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';

const signal = new AbortController().signal;
let workspace: TempWorkspace;
beforeEach(() => {
  workspace = new TempWorkspace();
});
afterEach(() => workspace.dispose());

const skill = (name: string, description: string, body = 'Do the thing.') => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

describe('the front-matter reader', () => {
  test('plain, quoted, folded and block scalars; other keys skipped whatever they hold', () => {
    assert.deepEqual(parseSkillFrontMatter(skill('pdf', 'Fill PDF forms. Use for any .pdf task.')), {
      ok: true,
      name: 'pdf',
      description: 'Fill PDF forms. Use for any .pdf task.',
    });
    const text = [
      '\uFEFF---',
      '# a comment',
      'name: "release-notes"',
      'license: MIT',
      'metadata:',
      '  nested: [1, 2]',
      '  deeper: {a: b}',
      "description: 'It''s for release notes:",
      "  write them from the git log'",
      'allowed-tools: Bash(git log:*)',
      '---',
      'body',
    ].join('\r\n');
    assert.deepEqual(parseSkillFrontMatter(text), { ok: true, name: 'release-notes', description: "It's for release notes: write them from the git log" });
    assert.deepEqual(parseSkillFrontMatter('---\nname: a\ndescription: >-\n  first line\n  second line\n---\n'), {
      ok: true,
      name: 'a',
      description: 'first line second line',
    });
    assert.deepEqual(parseSkillFrontMatter('---\nname: a\ndescription: plain start\n  and a folded rest # with a comment\n---\n'), {
      ok: true,
      name: 'a',
      description: 'plain start and a folded rest # with a comment',
    });
    assert.deepEqual(parseSkillFrontMatter('---\nname: a\ndescription: "say \\"hi\\"\\nthen go"\n---\n'), {
      ok: true,
      name: 'a',
      description: 'say "hi" then go',
    });
  });

  test('malformed front matter is a problem in words, never an exception', () => {
    const problem = (text: string) => {
      const parsed = parseSkillFrontMatter(text);
      assert.equal(parsed.ok, false, text);
      return parsed.ok ? '' : parsed.problem;
    };
    assert.match(problem('# Just markdown\n'), /does not start with front matter/);
    assert.match(problem('---\nname: a\ndescription: b\n'), /no closing `---`/);
    assert.match(problem('---\ndescription: b\n---\n'), /no `name`/);
    assert.match(problem('---\nname: a\n---\n'), /no `description`/);
    assert.match(problem('---\nname: a\ndescription: ""\n---\n'), /no `description`/);
    assert.match(problem(`---\nname: ${'x'.repeat(65)}\ndescription: b\n---\n`), /longer than 64/);
    assert.match(problem('---\nname: a b\ndescription: b\n---\n'), /characters other than/);
    assert.match(problem('---\nname: a\ndescription: [a, list]\n---\n'), /`description` is not a plain or quoted text/);
    assert.match(problem('---\nname: a\ndescription: "unclosed\n---\n'), /`description` is not a plain or quoted text/);
    assert.match(problem('---\nname: *anchor\ndescription: b\n---\n'), /`name` is not/);
    assert.match(problem('---\nthis is not a key\n---\n'), /line 2 is not `key: value`/);
    assert.match(problem('---\nname: a\u0000\ndescription: b\n---\n'), /not text/);
    assert.match(problem(`---\n${'x: y\n'.repeat(300)}---\n`), /within 200 lines/);
  });

  test('a long description is cut to 1024 characters, and whitespace cannot forge lines in the listing', () => {
    const parsed = parseSkillFrontMatter(skill('a', `"${'d'.repeat(5000)}"`));
    assert.ok(parsed.ok && parsed.description.length === 1024);
    const forged = parseSkillFrontMatter('---\nname: a\ndescription: |\n  line one\n  - evil: injected\n---\n');
    assert.deepEqual(forged, { ok: true, name: 'a', description: 'line one - evil: injected' });
  });
});

describe('finding skills in real folders', () => {
  const find = (limits?: Parameters<typeof findSkills>[3]) => findSkills(new NodeWorkspaceFiles(workspace.root), defaultProtectedFiles, signal, limits);

  test("each anchor's folder, in order; a folder without SKILL.md is skipped silently; a name already taken is noted", async () => {
    workspace.write('.github/skills/review/SKILL.md', skill('review', 'Review a diff.'));
    workspace.write('.github/skills/review/scripts/check.sh', 'echo ok\n');
    workspace.write('.claude/skills/pdf/SKILL.md', skill('pdf', 'Fill PDF forms.'));
    workspace.write('.claude/skills/pdf/reference.md', 'More.');
    workspace.write('.agents/skills/review/SKILL.md', skill('review', 'Another review.'));
    workspace.write('.codex/skills/helpers/notes.txt', 'no skill here');
    workspace.write('.cline/skills/deploy/SKILL.md', skill('deploy', 'Deploy the app.'));
    workspace.write('skills/other/SKILL.md', skill('other', 'Not in a folder the anchors read.'));
    const found = await find();
    assert.deepEqual(
      found.skills.map((s) => [s.name, s.path]),
      [
        ['review', '.github/skills/review/SKILL.md'],
        ['pdf', '.claude/skills/pdf/SKILL.md'],
        ['deploy', '.cline/skills/deploy/SKILL.md'],
      ],
    );
    assert.deepEqual(found.notes, ['.agents/skills/review/SKILL.md: skipped, a skill named "review" came first']);
  });

  test('hostile files: huge, binary, malformed, a symlink out, a protected file, a symlinked folder, a hard link', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'gateway-skill-outside-'));
    try {
      writeFileSync(join(outside, 'SKILL.md'), skill('outside', 'Read from outside the workspace.'));
      mkdirSync(join(outside, 'linked'));
      writeFileSync(join(outside, 'linked', 'SKILL.md'), skill('linked', 'A skill folder that is a symlink.'));
      workspace.write('.claude/skills/ok/SKILL.md', skill('ok', 'The good one.'));
      workspace.write('.claude/skills/huge/SKILL.md', skill('huge', 'Big.', 'x'.repeat(300 * 1024)));
      workspace.write('.claude/skills/binary/SKILL.md', `---\nname: bin\ndescription: \u0000\u0001\n---\n`);
      workspace.write('.claude/skills/broken/SKILL.md', 'no front matter at all');
      mkdirSync(join(workspace.root, '.claude/skills/out'), { recursive: true });
      symlinkSync(join(outside, 'SKILL.md'), join(workspace.root, '.claude/skills/out/SKILL.md'));
      workspace.write('.env', skill('secret', 'API_KEY=sk-live-123'));
      mkdirSync(join(workspace.root, '.claude/skills/env'), { recursive: true });
      symlinkSync(join(workspace.root, '.env'), join(workspace.root, '.claude/skills/env/SKILL.md'));
      symlinkSync(join(outside, 'linked'), join(workspace.root, '.claude/skills/linked'));
      workspace.write('.github/skills/.env.d/SKILL.md', skill('protected', 'A protected path.'));
      workspace.write('.github/skills/hard/x.md', skill('hard', 'Hard-linked.'));
      linkSync(join(workspace.root, '.github/skills/hard/x.md'), join(workspace.root, '.github/skills/hard/SKILL.md'));
      const found = await find();
      assert.deepEqual(
        found.skills.map((s) => s.name),
        ['ok'],
      );
      const notes = found.notes.join('\n');
      assert.match(notes, /huge\/SKILL\.md: skipped, it has \d+ bytes \(more than 262144\)/);
      assert.match(notes, /binary\/SKILL\.md: skipped, it is not text/);
      assert.match(notes, /broken\/SKILL\.md: skipped, it does not start with front matter/);
      assert.match(notes, /out\/SKILL\.md: skipped, it leads outside the workspace/);
      assert.match(notes, /env\/SKILL\.md: skipped, it leads to a protected file/);
      assert.match(notes, /\.env\.d\/SKILL\.md: skipped, it is a protected file/);
      assert.match(notes, /hard\/SKILL\.md: skipped, it has more than one name/);
      assert.doesNotMatch(JSON.stringify(found), /sk-live|outside the workspace\.|symlink\./);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('the count of skills looked at is bounded', async () => {
    for (let i = 0; i < 10; i++) workspace.write(`.claude/skills/s${i}/SKILL.md`, skill(`s${i}`, 'One of many.'));
    const found = await find({ maxSkills: 3, maxFileBytes: 1024, maxListingBytes: 1024 });
    assert.equal(found.skills.length, 3);
    assert.deepEqual(found.notes, ['.claude/skills/s3/SKILL.md: skipped, past the first 3 skills']);
  });
});

describe('the listing', () => {
  const skills: Skill[] = Array.from({ length: 50 }, (_, i) => ({ name: `s${i}`, description: 'd'.repeat(100), path: `.claude/skills/s${i}/SKILL.md` }));

  test('every name listed, the descriptions shortened alike to fit the bound (said in a note); whole when they fit', () => {
    const listing = skillListing(skills, { maxSkills: 64, maxFileBytes: 1024, maxListingBytes: 4096 });
    assert.ok(listing);
    assert.ok(Buffer.byteLength(listing.text) <= 4096);
    assert.equal(listing.listed.length, 50);
    const cut = /^- s0: (d+)… \(\.claude\/skills\/s0\/SKILL\.md\)$/m.exec(listing.text);
    assert.ok(cut, listing.text.slice(0, 600));
    assert.ok(cut[1].length > 10 && cut[1].length < 100);
    assert.match(listing.text, /^- s49: d+… \(\.claude\/skills\/s49\/SKILL\.md\)$/m);
    assert.deepEqual(listing.notes, [
      `Skills: descriptions shortened to ${cut[1].length} characters so that all 50 skills are listed within 4 KB (each SKILL.md has the whole of it).`,
    ]);
    const whole = skillListing(skills.slice(0, 5));
    assert.match(whole?.text ?? '', /^- s4: d{100} \(\.claude\/skills\/s4\/SKILL\.md\)$/m);
    assert.deepEqual(whole?.notes, []);
    assert.equal(skillListing([]), undefined);
  });

  test('when not even the names fit (hostile folder names), as many as fit are listed and the rest counted', () => {
    const listing = skillListing(skills, { maxSkills: 64, maxFileBytes: 1024, maxListingBytes: 1024 });
    assert.ok(listing && listing.listed.length > 5 && listing.listed.length < 50);
    assert.ok(Buffer.byteLength(listing.text) <= 1024 + 200, 'the bound, plus the one line that counts the rest');
    assert.match(listing.text, new RegExp(`\\(${50 - listing.listed.length} more skills are not listed`));
    assert.match(listing.text, /^- s0 \(\.claude\/skills\/s0\/SKILL\.md\)$/m);
  });
});

describe('a session lists them once, with the root instructions', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());
  const bodies = () => emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);

  test('the first request lists the skill, the model reads its body with read_file, the session names its file; a broken one is logged', async () => {
    workspace.write('AGENTS.md', 'Project rules.');
    workspace.write('.github/skills/changelog/SKILL.md', skill('changelog', 'Write a changelog entry.', 'Use the format: - [area] change'));
    workspace.write('.claude/skills/broken/SKILL.md', '---\nname: broken\n');
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: '.github/skills/changelog/SKILL.md' } }] }, { text: 'done' }]);
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: true, logger });
    const state = startSession('add a changelog entry');
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    const [first, second] = bodies();
    const developer = first.input[1];
    assert.equal(developer.role, 'developer');
    assert.match(developer.content, /Project rules\./);
    assert.match(developer.content, /^- changelog: Write a changelog entry\. \(\.github\/skills\/changelog\/SKILL\.md\)$/m);
    assert.doesNotMatch(developer.content, /Use the format/, 'the body is read on demand, not sent');
    assert.match(JSON.stringify(second.input), /Use the format: - \[area\] change/);
    assert.doesNotMatch(JSON.stringify(second.input), /Skills in this workspace/, 'listed once');
    assert.deepEqual(state.projectInstructions?.files, ['AGENTS.md', '.github/skills/changelog/SKILL.md']);
    assert.deepEqual(warnings, ['Skill .claude/skills/broken/SKILL.md: skipped, its front matter has no closing `---` line within 200 lines.']);
  });

  test("a skill's script runs through run_command under the normal approval: asked first, not run when denied", async () => {
    workspace.write('.claude/skills/stamp/SKILL.md', skill('stamp', 'Stamp the build.', 'Run: sh .claude/skills/stamp/scripts/stamp.sh'));
    workspace.write('.claude/skills/stamp/scripts/stamp.sh', 'echo stamped > stamp.txt\necho stamped\n');
    for (const approve of [true, false]) {
      emulator.reset();
      rmSync(join(workspace.root, 'stamp.txt'), { force: true });
      emulator.script('demo-key', [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'sh .claude/skills/stamp/scripts/stamp.sh' } }] },
        { text: 'done' },
      ]);
      const { engine, approvals } = makeEngine({
        baseUrl: emulator.baseUrl,
        workspace,
        projectInstructions: true,
        policy: { mode: 'ask', deniedCommands: [] },
        approve: () => approve,
      });
      await runToEnd(engine, startSession('stamp the build'));
      assert.deepEqual(
        approvals.map((a) => a.command?.line),
        ['sh .claude/skills/stamp/scripts/stamp.sh'],
      );
      assert.equal(existsSync(join(workspace.root, 'stamp.txt')), approve);
    }
  });

  test('with gateway.agent.projectInstructions off no skill is read or listed', async () => {
    workspace.write('.github/skills/changelog/SKILL.md', skill('changelog', 'Write a changelog entry.'));
    emulator.script('demo-key', [{ text: 'done' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: false });
    const state = startSession('hello');
    await runToEnd(engine, state);
    assert.deepEqual(bodies()[0].input, [{ role: 'user', content: 'hello' }]);
    assert.equal(state.projectInstructions, undefined);
  });
});

describe('every skill reachable, the skills read in the summary (issue 38)', () => {
  // 30 real skills of github/awesome-copilot with long descriptions (fixtures/skills/SOURCES.md): 14 KB of descriptions.
  const FIXTURES = join(__dirname, 'fixtures', 'skills');
  const realSkills = () => readdirSync(FIXTURES).filter((name) => !name.endsWith('.md'));
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());
  const bodies = () => emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);

  test('all 30 real skills are listed by name within the 8 KB listing, their descriptions shortened (said once in the log); the summary names the one read', async () => {
    for (const name of realSkills()) workspace.write(`.github/skills/${name}/SKILL.md`, readFileSync(join(FIXTURES, name, 'SKILL.md'), 'utf8'));
    assert.equal(realSkills().length, 30);
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: '.github/skills/audit-integrity/SKILL.md' } }] }, { text: 'done' }]);
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: true, logger });
    const state = startSession('check the audit');
    await runToEnd(engine, state);
    const listing: string = bodies()[0].input[1].content;
    for (const name of realSkills()) assert.match(listing, new RegExp(`^- ${name}: .*\\(\\.github/skills/${name}/SKILL\\.md\\)$`, 'm'), name);
    assert.doesNotMatch(listing, /more skills are not listed/);
    assert.ok(Buffer.byteLength(listing) <= 8 * 1024, `${Buffer.byteLength(listing)} bytes`);
    assert.equal(warnings.filter((line) => /descriptions/.test(line)).length, 1);
    assert.match(warnings.join('\n'), /^Skills: descriptions shortened to \d+ characters so that all 30 skills are listed within 8 KB/m);
    assert.deepEqual(state.projectInstructions?.files, ['.github/skills/audit-integrity/SKILL.md'], 'the skill read, not the 30 listed');
    // Continued in a new run on the same chain: the listing is not sent again.
    emulator.reset();
    emulator.script('demo-key', [{ text: 'still done' }]);
    state.unsent.push({ role: 'user', content: 'and again' });
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: true, logger }).engine, state);
    assert.doesNotMatch(JSON.stringify(bodies()[0].input), /Skills in this workspace/);
  });

  test('past the 64 skills read, the listing says more are in the folders (read_file reaches them), and the log says it once', async () => {
    for (let i = 0; i < 70; i++) workspace.write(`.claude/skills/s${String(i).padStart(2, '0')}/SKILL.md`, skill(`s${i}`, `Skill ${i}.`));
    emulator.script('demo-key', [{ text: 'done' }]);
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: true, logger }).engine, startSession('hi'));
    const listing: string = bodies()[0].input[0].role === 'developer' ? bodies()[0].input[0].content : bodies()[0].input[1].content;
    assert.match(listing, /^- s63: Skill 63\. /m);
    assert.doesNotMatch(listing, /^- s64:/m);
    assert.match(
      listing,
      /\(More skills than the 64 listed are in .*\.claude\/skills.*: list a folder with list_files and read a SKILL\.md with read_file\.\)$/,
    );
    assert.deepEqual(warnings, ['Skill .claude/skills/s64/SKILL.md: skipped, past the first 64 skills.']);
  });

  test('a symlinked skill folder is left out with a line in the log', async () => {
    workspace.write('shared/linked/SKILL.md', skill('linked', 'A skill kept elsewhere.'));
    mkdirSync(join(workspace.root, '.github/skills'), { recursive: true });
    symlinkSync(join(workspace.root, 'shared/linked'), join(workspace.root, '.github/skills/linked'));
    const found = await findSkills(new NodeWorkspaceFiles(workspace.root), defaultProtectedFiles, signal);
    assert.deepEqual(found.skills, []);
    assert.deepEqual(found.notes, ['.github/skills/linked: skipped, it is a symlinked folder (only real folders are read)']);
  });
});
