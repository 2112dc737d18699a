// The user's own prompt files: VS Code keeps them in the profile folder's `prompts` (User/prompts), found two levels
// above the extension's global storage; listed after the workspace's, marked as the user's, bounded and guarded alike.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findPromptFiles, parsePromptCall, profileFolderOf, promptKind, readPromptFile } from '../../../src/customization/common/promptFiles';
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

describe("a prompt file's front-matter `name` (VS Code: the name typed after `/`, else the file's name)", () => {
  /** A workspace with these `.github/prompts` files; the prompts found and the notes. */
  async function promptsOf(files: Record<string, string>) {
    const workspace = mkdtempSync(join(tmpdir(), 'gateway-prompt-names-'));
    try {
      mkdirSync(join(workspace, '.github', 'prompts'), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(workspace, '.github', 'prompts', name), text);
      return await findPromptFiles({ files: new NodeWorkspaceFiles(workspace), protectedFiles: defaultProtectedFiles }, signal);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  }

  // The shape of the prompt files of github/awesome-copilot and of VS Code's docs: `name` next to `description` and `agent`.
  const createReadme = [
    '---',
    "name: 'create-readme'",
    "description: 'Create a README.md file for the project'",
    "agent: 'agent'",
    "tools: ['search/codebase', 'edit/editFiles']",
    '---',
    '## Role',
    '',
    "You're a senior software engineer. Create a README.md for ${input:project:the project}.",
  ].join('\n');

  test('a `name` without spaces is what /prompt takes; the file name then is not a name of it', async () => {
    const found = await promptsOf({ 'readme-generator.prompt.md': createReadme });
    assert.deepEqual(
      found.items.map((prompt) => [prompt.name, prompt.path, prompt.mode]),
      [['create-readme', '.github/prompts/readme-generator.prompt.md', 'agent']],
    );
    assert.deepEqual(found.notes, []);
    const call = parsePromptCall('create-readme project=gateway');
    assert.equal(
      found.items.find((prompt) => prompt.name === call.name)?.path,
      '.github/prompts/readme-generator.prompt.md',
      '/prompt create-readme runs the file',
    );
    assert.equal(
      found.items.find((prompt) => prompt.name === 'readme-generator'),
      undefined,
      'as in VS Code, a named prompt is not also reached by its file name',
    );
  });

  test('a `name` with spaces cannot follow /prompt: the file name is used, and the note says what to write', async () => {
    const text = '---\nname: Review Pull Request\ndescription: Review the current PR\n---\nReview the changes of this branch.';
    const found = await promptsOf({ 'review-pr.prompt.md': text });
    assert.deepEqual(
      found.items.map((prompt) => prompt.name),
      ['review-pr'],
    );
    assert.deepEqual(found.notes, [
      '.github/prompts/review-pr.prompt.md: its `name` "Review Pull Request" cannot follow /prompt (letters, digits, `-`, `_`, `.`; at most 64): it runs as /prompt review-pr; write `name: Review-Pull-Request` to run it by its name',
    ]);
    assert.equal(typeof readPromptFile('.github/prompts/a b.prompt.md', text), 'string', 'neither name typeable: not a prompt');
    const byName = readPromptFile('.github/prompts/a b.prompt.md', '---\nname: ab\n---\nx');
    assert.ok(typeof byName === 'object' && byName.prompt.name === 'ab', 'a file name with a space is fine when `name` is typeable');
  });

  test('two files of one name: the first by path runs (as VS Code takes the first that matches), the other is a note', async () => {
    const found = await promptsOf({
      'b-review.prompt.md': '---\nname: review\n---\nThe second review.',
      'a-review.prompt.md': '---\nname: review\n---\nThe first review.',
      'review.prompt.md': 'Named by its file: the third review.',
      'Review2.prompt.md': '---\nname: Review\n---\nAnother case: another name.',
    });
    assert.deepEqual(
      found.items.map((prompt) => [prompt.name, prompt.path]),
      [
        ['Review', '.github/prompts/Review2.prompt.md'],
        ['review', '.github/prompts/a-review.prompt.md'],
      ],
    );
    assert.deepEqual(found.notes, [
      '.github/prompts/b-review.prompt.md: skipped, its name "review" is that of .github/prompts/a-review.prompt.md too, which comes first; give one another `name`',
      '.github/prompts/review.prompt.md: skipped, its name "review" is that of .github/prompts/a-review.prompt.md too, which comes first; give one another `name`',
    ]);
  });
});
