// The user's own prompt files: VS Code keeps them in the profile folder's `prompts` (User/prompts), found two levels
// above the extension's global storage; listed after the workspace's, marked as the user's, bounded and guarded alike.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { profileFolderOf, promptKind } from '../../../src/customization/common/promptFiles';
import { findWorkspaceAgentFiles } from '../../../src/customization/common/workspaceAgentFiles';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { MemoryLogger } from '../helpers/clients';

const signal = new AbortController().signal;

describe('the profile folder from the global storage', () => {
  test('two levels up from User/globalStorage/<extension>, on Linux, macOS and Windows paths', () => {
    assert.equal(profileFolderOf('/home/u/.config/Code/User/globalStorage/gateway.gateway-vscode'), '/home/u/.config/Code/User');
    assert.equal(profileFolderOf('/home/u/.config/Code/User/globalStorage/gateway.gateway-vscode/'), '/home/u/.config/Code/User');
    assert.equal(
      profileFolderOf('C:\\Users\\u\\AppData\\Roaming\\Code\\User\\globalStorage\\gateway.gateway-vscode'),
      'C:\\Users\\u\\AppData\\Roaming\\Code\\User',
    );
  });

  test('a storage laid out otherwise gives none (no guessing at other folders)', () => {
    assert.equal(profileFolderOf('/tmp/storage/gateway.gateway-vscode'), undefined);
    assert.equal(profileFolderOf('globalStorage/x'), undefined);
    assert.equal(profileFolderOf(''), undefined);
  });
});

describe("the user's prompt files in a temporary profile layout", () => {
  function layout() {
    const base = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
    const storage = join(base, 'Code', 'User', 'globalStorage', 'gateway.gateway-vscode');
    mkdirSync(storage, { recursive: true });
    const prompts = join(base, 'Code', 'User', 'prompts');
    mkdirSync(prompts);
    const workspace = join(base, 'ws');
    mkdirSync(join(workspace, '.github', 'prompts'), { recursive: true });
    writeFileSync(join(workspace, '.github', 'prompts', 'review.prompt.md'), '---\ndescription: the workspace review\n---\nReview the diff.');
    writeFileSync(join(prompts, 'standup.prompt.md'), '---\ndescription: my standup notes\nmode: agent\n---\nSummarize what changed today.');
    writeFileSync(join(prompts, 'review.prompt.md'), '---\ndescription: my review\n---\nMy own review.');
    writeFileSync(join(prompts, 'huge.prompt.md'), `---\ndescription: d\n---\n${'x'.repeat(70 * 1024)}`);
    writeFileSync(join(base, 'secret.txt'), 'From outside the profile');
    symlinkSync(join(base, 'secret.txt'), join(prompts, 'out.prompt.md'));
    writeFileSync(join(prompts, 'notes.md'), 'not a prompt file');
    const profile = profileFolderOf(storage);
    assert.ok(profile);
    return { base, workspace, profile, cleanup: () => rmSync(base, { recursive: true, force: true }) };
  }

  test("listed after the workspace's, marked as the user's; a name the workspace has, a huge file, a symlink out: notes", async () => {
    const { workspace, profile, cleanup } = layout();
    try {
      const logger = new MemoryLogger();
      const found = await findWorkspaceAgentFiles(
        {
          files: new NodeWorkspaceFiles(workspace),
          userFiles: new NodeWorkspaceFiles(profile),
          protectedFiles: defaultProtectedFiles,
          settings: { projectInstructions: true },
          logger,
        },
        signal,
      );
      assert.deepEqual(
        found.prompts.map((p) => [p.name, p.path, p.user ?? false, p.description]),
        [
          ['review', '.github/prompts/review.prompt.md', false, 'the workspace review'],
          ['standup', 'User/prompts/standup.prompt.md', true, 'my standup notes'],
        ],
      );
      assert.deepEqual(found.prompts.map(promptKind), ['chat', 'user prompt · agent session']);
      const log = logger.lines.join('\n');
      assert.match(log, /User\/prompts\/review\.prompt\.md: skipped, the workspace has a prompt file named "review"/);
      assert.match(log, /User\/prompts\/huge\.prompt\.md: skipped, it has \d+ bytes \(more than 65536\)/);
      assert.match(log, /User\/prompts\/out\.prompt\.md: skipped, it leads outside the workspace/);
      assert.doesNotMatch(JSON.stringify(found) + log, /From outside the profile/);
    } finally {
      cleanup();
    }
  });

  test('without a workspace folder the user prompts alone; with project files off, none', async () => {
    const { profile, cleanup } = layout();
    try {
      const userFiles = new NodeWorkspaceFiles(profile);
      const alone = await findWorkspaceAgentFiles(
        { userFiles, protectedFiles: defaultProtectedFiles, settings: { projectInstructions: true }, logger: new MemoryLogger() },
        signal,
      );
      assert.deepEqual(
        alone.prompts.map((p) => p.name),
        ['review', 'standup'],
      );
      assert.deepEqual(alone.agents, []);
      const off = await findWorkspaceAgentFiles(
        { userFiles, protectedFiles: defaultProtectedFiles, settings: { projectInstructions: false }, logger: new MemoryLogger() },
        signal,
      );
      assert.deepEqual(off, { agents: [], prompts: [] });
    } finally {
      cleanup();
    }
  });

  test('a profile without a prompts folder, or one that does not exist, gives none and no failure', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
    try {
      for (const profile of [base, join(base, 'missing')]) {
        const found = await findWorkspaceAgentFiles(
          {
            userFiles: new NodeWorkspaceFiles(profile),
            protectedFiles: defaultProtectedFiles,
            settings: { projectInstructions: true },
            logger: new MemoryLogger(),
          },
          signal,
        );
        assert.deepEqual(found, { agents: [], prompts: [] });
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
