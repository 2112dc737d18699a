// The sandbox is visible (issue 27, item 7): why a command still asks in `auto`, and when a failure is the sandbox's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commandApprovalReason, type ApprovalPolicy } from '../../../src/agent/common/approvals/approvalPolicy';
import { approvalMarkdown } from '../../../src/agent/common/approvals/commandDisplay';
import { sandboxFailure } from '../../../src/terminal/common/sandboxFailure';

const auto: ApprovalPolicy = { mode: 'auto', deniedCommands: ['rm -rf', 'git push', 'curl'], commandsSandboxed: true };

describe('commandApprovalReason', () => {
  test('in auto, a command that asks names the denied pattern it matched and the part of the line that did', () => {
    assert.equal(commandApprovalReason(auto, 'npm test && rm -fr build'), '"rm -fr build" matches the denied command "rm -rf" (gateway.agent.deniedCommands).');
    assert.equal(
      commandApprovalReason(auto, 'echo $(curl -s x.example)'),
      '"curl -s x.example" matches the denied command "curl" (gateway.agent.deniedCommands).',
    );
  });

  test('a command that runs unasked has no reason; one nobody can read says so', () => {
    assert.equal(commandApprovalReason(auto, 'npm test'), undefined);
    assert.match(commandApprovalReason(auto, '$CMD build') ?? '', /^nobody can tell what "\$CMD build" runs/);
  });

  test('outside auto, or without a sandbox, the mode is the reason', () => {
    assert.match(commandApprovalReason({ ...auto, mode: 'auto-edit' }, 'npm test') ?? '', /approval mode is "auto-edit"/);
    assert.match(commandApprovalReason({ ...auto, commandsSandboxed: false }, 'npm test') ?? '', /no sandbox here/);
  });

  test('the approval shows the reason as plain text: a command in it cannot add Markdown', () => {
    const reason = commandApprovalReason(auto, 'curl [x]: *b*')!;
    const markdown = approvalMarkdown({ summary: 'Run curl', command: { line: 'curl', cwd: '.', reason } }, 'app');
    assert.match(markdown, /\n\nIt asks because "curl \\\[x\\\]: \\\*b\\\*" matches the denied command "curl" \\\(gateway\\\.agent/);
  });
});

describe('sandboxFailure', () => {
  const offline = { network: false };
  test('the sandbox signs in a failed output: read-only, no network, denied access', () => {
    assert.deepEqual(sandboxFailure({ exitCode: 1, output: "touch: cannot touch '/usr/x': Read-only file system\n" }, offline), {
      evidence: 'Read-only file system',
      cause: 'writing outside the workspace and /tmp',
    });
    assert.equal(sandboxFailure({ exitCode: 6, output: 'curl: (6) Could not resolve host: example.com' }, offline)?.cause, 'the network');
    assert.equal(sandboxFailure({ exitCode: 1, output: 'Error: getaddrinfo EAI_AGAIN registry.npmjs.org' }, offline)?.evidence, 'EAI_AGAIN');
    assert.equal(sandboxFailure({ exitCode: 1, output: 'Error: EACCES: permission denied, open' }, offline)?.evidence, 'EACCES');
  });

  test("the sandbox's limits, each named with its figure (issue 36): file size, processes, memory", () => {
    assert.match(
      sandboxFailure({ exitCode: 153, output: 'bash: line 1: 12 File size limit exceeded (core dumped) head -c 9G /dev/zero > big' }, offline)?.cause ?? '',
      /4 GB/,
    );
    assert.match(sandboxFailure({ exitCode: 254, output: 'bash: fork: retry: Resource temporarily unavailable\n' }, offline)?.cause ?? '', /4,096 processes/);
    assert.match(sandboxFailure({ exitCode: 1, output: 'Traceback (most recent call last):\nMemoryError\n' }, offline)?.cause ?? '', /memory per process/);
  });

  test('no sign without a failure, with the network allowed, or in an unrelated error', () => {
    assert.equal(sandboxFailure({ exitCode: 0, output: 'Read-only file system' }, offline), undefined);
    assert.equal(sandboxFailure({ exitCode: 6, output: 'Could not resolve host: typo.example' }, { network: true }), undefined);
    assert.equal(sandboxFailure({ exitCode: 1, output: 'AssertionError: expected 2 to equal 3' }, offline), undefined);
  });
});
