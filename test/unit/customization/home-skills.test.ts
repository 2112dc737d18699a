// Skills in the user's home folder: found in a real (temp) home with hostile entries, listed by name and description,
// and read only through read_skill, by name, only the files found when the run started.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { HomeSkills } from '../../../src/customization/common/homeSkills';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';

const signal = new AbortController().signal;
const skill = (name: string, description: string, body = 'Do the thing.') => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

function makeHome() {
  const home = mkdtempSync(join(tmpdir(), 'gateway-home-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  };
  return { home, write, skills: () => new HomeSkills(new NodeWorkspaceFiles(home, { protectedFiles: () => defaultProtectedFiles }), defaultProtectedFiles) };
}

describe('home skills', () => {
  let made: ReturnType<typeof makeHome>;
  let outside: string;
  beforeEach(() => {
    made = makeHome();
    outside = mkdtempSync(join(tmpdir(), 'gateway-home-outside-'));
  });
  afterEach(() => {
    rmSync(made.home, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test('found in the four folders; symlinked skills, symlinked SKILL.md files and duplicates are left out', async () => {
    made.write('.claude/skills/review/SKILL.md', skill('review', 'Review a diff.', 'Check the tests first.'));
    made.write('.copilot/skills/pdf/SKILL.md', skill('pdf', 'Fill PDF forms.'));
    made.write('.codex/skills/review/SKILL.md', skill('review', 'Another review.'));
    made.write('dotfiles/linked/SKILL.md', skill('linked', 'Reached through a link inside home.'));
    mkdirSync(join(made.home, '.agents/skills/inner'), { recursive: true });
    symlinkSync(join(made.home, 'dotfiles/linked/SKILL.md'), join(made.home, '.agents/skills/inner/SKILL.md'));
    writeFileSync(join(outside, 'SKILL.md'), skill('evil', 'Outside.'));
    mkdirSync(join(outside, 'folder'));
    symlinkSync(outside, join(made.home, '.claude/skills/outside-folder'));
    const homeSkills = made.skills();
    const warnings: string[] = [];
    const logged = new HomeSkills(new NodeWorkspaceFiles(made.home), defaultProtectedFiles, {
      trace() {},
      debug() {},
      info() {},
      warn: (m) => void warnings.push(m),
      error() {},
    });
    await logged.find(signal);
    const found = await homeSkills.find(signal);
    assert.deepEqual(
      found.map((s) => [s.name, s.path]),
      [
        ['pdf', '.copilot/skills/pdf/SKILL.md'],
        ['review', '.claude/skills/review/SKILL.md'],
      ],
    );
    assert.match(warnings.join('\n'), /~\/\.agents\/skills\/inner\/SKILL\.md: skipped, it is reached through a symlink/);
    assert.match(warnings.join('\n'), /~\/\.codex\/skills\/review\/SKILL\.md: skipped, a skill named "review" came first/);
    assert.equal(
      homeSkills
        .listing(new Set(['pdf']))
        ?.text.split('\n')
        .slice(1)
        .join('\n'),
      '- review: Review a diff.',
      'a workspace skill of the same name wins',
    );
  });

  test('read_skill opens a found SKILL.md by name and nothing else; a file swapped for a link since is refused', async () => {
    made.write('.claude/skills/review/SKILL.md', skill('review', 'Review a diff.', 'Check the tests first.'));
    writeFileSync(join(outside, 'secret.txt'), 'SECRET');
    const homeSkills = made.skills();
    await homeSkills.find(signal);
    const tool = homeSkills.tool();
    const call = async (args: unknown) => (await tool.prepare(args, {} as never, signal)).execute(signal);
    assert.match((await call({ name: 'review' })).output, /Check the tests first\./);
    assert.match((await call('{"name":"review"}')).output, /Check the tests first\./);
    for (const name of ['../../etc/passwd', '.claude/skills/review/SKILL.md', 'nope', 42]) {
      const outcome = await call({ name });
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, /There is no home skill named .*; the names are: review\./);
    }
    unlinkSync(join(made.home, '.claude/skills/review/SKILL.md'));
    symlinkSync(join(outside, 'secret.txt'), join(made.home, '.claude/skills/review/SKILL.md'));
    const swapped = await call({ name: 'review' });
    assert.equal(swapped.ok, false);
    assert.doesNotMatch(swapped.output, /SECRET/);
  });
});

describe('home skills in a session', () => {
  const fixture = useEmulatorAndWorkspace({ '.github/skills/ws/SKILL.md': skill('ws', 'A workspace skill.') });

  test('listed after the workspace skills, read with read_skill, named ~/… in the session', async () => {
    const { emulator, workspace } = fixture;
    const made = makeHome();
    try {
      made.write('.claude/skills/review/SKILL.md', skill('review', 'Review a diff.', 'Check the tests first.'));
      const homeSkills = made.skills();
      emulator.script('demo-key', [{ toolCalls: [{ name: 'read_skill', arguments: { name: 'review' } }] }, { text: 'done' }]);
      const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: true, homeSkills, extraTools: [homeSkills.tool()] });
      const state = startSession('review this');
      await runToEnd(engine, state);
      const bodies = emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);
      const developer: string = bodies[0].input[1].content;
      assert.match(developer, /- ws: A workspace skill\./);
      assert.match(developer, /Skills in the user's home folder .*call read_skill with its name.*\n- review: Review a diff\.$/);
      assert.doesNotMatch(developer, /Check the tests first/);
      assert.match(JSON.stringify(bodies[1].input), /Check the tests first\./);
      // The summary names the skill read, not the workspace skill only listed.
      assert.deepEqual(state.projectInstructions?.files, ['~/.claude/skills/review/SKILL.md']);
      assert.deepEqual(state.projectInstructions?.skills, ['.github/skills/ws/SKILL.md', '~/.claude/skills/review/SKILL.md']);
    } finally {
      rmSync(made.home, { recursive: true, force: true });
    }
  });
});
