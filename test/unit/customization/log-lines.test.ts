// The log stays short with many customisation files (issue 38): what is left out for one reason is one line with a
// count and a few names, not a line per file; a single file keeps its own line. Real files where they exist: the
// 30 awesome-copilot skills of fixtures/skills in two folders, as a workspace that serves Copilot and Claude Code has them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { findWorkspaceAgentFiles } from '../../../src/customization/common/workspaceAgentFiles';
import { SessionHooks, hookApprovalsThrough } from '../../../src/customization/common/hooks';
import { nodeHookHost } from '../../../src/customization/node/hookProcess';
import { NodeHookFiles } from '../../../src/customization/node/nodeHookFiles';
import { systemClock } from '../../../src/base/common/ports';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator } from '../../emulator/server';
import { makeEngine, runToEnd, startSession, TempWorkspace } from '../helpers/agent';
import { logged, memory } from '../helpers/hookParts';

const signal = new AbortController().signal;
let workspace: TempWorkspace;
beforeEach(() => {
  workspace = new TempWorkspace();
});
afterEach(() => workspace.dispose());

describe('one log line per kind', () => {
  test('the same 30 real skills in .github/skills and .claude/skills: one "came first" line with the count and five names', async () => {
    const fixtures = join(__dirname, 'fixtures', 'skills');
    const names = readdirSync(fixtures).filter((name) => !name.endsWith('.md'));
    for (const name of names) {
      const text = readFileSync(join(fixtures, name, 'SKILL.md'), 'utf8');
      workspace.write(`.github/skills/${name}/SKILL.md`, text);
      workspace.write(`.claude/skills/${name}/SKILL.md`, text);
    }
    const emulator = await startEmulator({ port: 0 });
    try {
      emulator.script('demo-key', [{ text: 'done' }]);
      const logger = logged();
      await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, projectInstructions: true, logger }).engine, startSession('hi'));
      const firsts = logger.lines.filter((line) => line.includes('came first'));
      assert.equal(firsts.length, 1, logger.lines.join('\n'));
      assert.match(
        firsts[0],
        /^Skills: 30 skipped, a skill named "…" came first: \.claude\/skills\/acreadiness-assess\/SKILL\.md, (\.claude\/skills\/[\w-]+\/SKILL\.md, ){3}\.claude\/skills\/[\w-]+\/SKILL\.md and 25 more\.$/,
      );
    } finally {
      await emulator.close();
    }
  });

  test('12 custom agents taken by a name that came first: one line; a single file left out keeps its own line', async () => {
    const agent = (name: string) => `---\nname: ${name}\ndescription: Agent ${name}.\n---\nDo it.\n`;
    for (let i = 0; i < 12; i++) {
      workspace.write(`.github/agents/a${String(i).padStart(2, '0')}.agent.md`, agent(`a${i}`));
      workspace.write(`.claude/agents/a${String(i).padStart(2, '0')}.md`, agent(`a${i}`));
    }
    workspace.write('.github/prompts/broken.prompt.md', '---\nmode: agent\n');
    const logger = logged();
    const found = await findWorkspaceAgentFiles(
      { files: new NodeWorkspaceFiles(workspace.root), protectedFiles: defaultProtectedFiles, settings: { projectInstructions: true }, logger },
      signal,
    );
    assert.equal(found.agents.length, 12);
    assert.deepEqual(logger.lines, [
      'Custom agents: 12 skipped, an agent named "…" came first: .claude/agents/a00.md, .claude/agents/a01.md, .claude/agents/a02.md, ' +
        '.claude/agents/a03.md, .claude/agents/a04.md and 7 more.',
      'Prompt file .github/prompts/broken.prompt.md: skipped, its front matter has no closing `---` line within 200 lines.',
    ]);
  });

  test('8 Copilot hook files with an event this extension does not run: one line naming the files', async () => {
    for (let i = 0; i < 8; i++) {
      workspace.write(`.github/hooks/h${i}.json`, JSON.stringify({ version: 1, hooks: { errorOccurred: [{ type: 'command', bash: 'echo x' }] } }));
    }
    const logger = logged();
    const root = workspace.root;
    const host = nodeHookHost({ root, sandboxFor: async () => undefined });
    const approver = { approve: async () => true };
    const hooks = new SessionHooks({
      platform: process.platform,
      files: new NodeWorkspaceFiles(root),
      protectedFiles: defaultProtectedFiles,
      host,
      approvals: hookApprovalsThrough({
        approver,
        memory: memory(),
        host,
        files: new NodeHookFiles({ root, home: undefined }),
        sessionId: 's',
        clock: systemClock,
      }),
      sessionId: 's',
      root,
      clock: systemClock,
      logger,
    });
    await hooks.start('startup', signal);
    assert.equal(logger.lines.length, 1, logger.lines.join('\n'));
    assert.match(logger.lines[0], /^Hook files: 8 the "…" event is not supported here.*: \.github\/hooks\/h0\.json, .* and 3 more\.$/);
  });
});
