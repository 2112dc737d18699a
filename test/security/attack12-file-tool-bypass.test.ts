// Attack (round 12): what the sandbox's review holds back, the file tools write unasked.
// Under `auto` (and `auto-edit`) a file tool's write applies without a question unless the path is a control path
// (approvalPolicy.ts needsApprovalAlways → controlPaths.ts isControlPath: `.git`, `.vscode`, `.husky`, `.envrc`,
// `*.code-workspace`, `.github/hooks`) or protected. The header there says it is "the same list the sandbox keeps
// commands from planting", but the sandbox's review has grown far past it (changeReview.ts EDITOR_AND_AGENT_NAMES
// and HOOK_MANAGER_NAMES, what Git configs and hooks point at, Python environments): Claude Code's and the other
// agents' hook configs, `.mcp.json`, mise's configs, the Git hook managers' configs, `.gitattributes` (filters),
// `.gitmodules`, `.lfsconfig`, Dev Containers' host-side `initializeCommand`, yarn's `yarnPath`. The model that a
// sandboxed command could not get any of these past simply writes them with write_file, and they apply at once.
// Impact: `.claude/settings.json` with a hook, `mise.toml` with an enter hook, `lefthook.yml` with a pre-commit command…
// written by the model in `auto`, unasked, run outside any sandbox at the next session, prompt or commit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsApproval } from '../../src/agent/common/approvals/approvalPolicy';
import { ApprovalMode } from '../../src/settings/common';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { isEditorOrAgentPath } from '../../src/terminal/common/changeReview';

const PATHS = [
  '.claude/settings.json',
  '.mcp.json',
  'mise.toml',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.gitattributes',
  '.gitmodules',
  '.lfsconfig',
  '.devcontainer/devcontainer.json',
  '.yarnrc.yml',
  '.cursor/hooks.json',
  '.gemini/settings.json',
];

describe('attack: the file tools write what the sandbox holds back', () => {
  const policy = { mode: 'auto' as ApprovalMode, deniedCommands: [], protectedFiles: defaultProtectedFiles, commandsSandboxed: true };
  for (const path of PATHS) {
    test(`write_file to ${path} asks in auto (a sandboxed command's change to it is held)`, () => {
      assert.equal(isEditorOrAgentPath(path), true, `the review holds ${path} for a sandboxed command`);
      assert.equal(
        needsApproval(policy, 'write', undefined, { paths: [path] }),
        true,
        `${path} is held back from a sandboxed command as code other software runs, but the file tools write it unasked in auto`,
      );
    });
  }
});
