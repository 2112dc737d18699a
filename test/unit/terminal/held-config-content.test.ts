// Held configs read by what they are (round 19a, findings 7, 8, 10, 11): an agent's manifest by its name in any folder
// (common/agentConfigShape.ts), `.openhands` held by name (common/heldNames.ts), a held config read by its content,
// JSON whatever its extension, and JetBrains' XML (node/programConfigs.ts, node/xmlConfigs.ts). The attacks, run in
// the real sandbox, are test/security/attack19a-*.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { writeNeedsApproval } from '../../../src/agent/common/approvals/approvalPolicy';
import { isAgentConfigCandidate } from '../../../src/terminal/common/agentConfigShape';
import { isHeldByName, isHeldConfigFile, isProgramConfigPath } from '../../../src/terminal/common/changeReview';
import { programConfigTexts } from '../../../src/terminal/node/programConfigs';
import { ConfigTooLarge } from '../../../src/terminal/node/reviewBounds';
import { xmlConfig } from '../../../src/terminal/node/xmlConfigs';

describe("an agent's manifest by its name in any folder", () => {
  for (const path of [
    'agents/extensions/db/gemini-extension.json',
    'tools/ext/QWEN-EXTENSION.JSON',
    'plugins/p/hooks/hooks.json',
    'servers/mcp.json',
    'servers/.mcp.json',
    'gemini-extension.json',
  ]) {
    test(`${path} is read by the word rule`, () => assert.ok(isAgentConfigCandidate(path)));
  }
  for (const path of [
    'node_modules/x/gemini-extension.json',
    'src/data/hooks.json',
    'src/my-gemini-extension.json',
    'fixtures/mcp.json5.bak',
    'docs/hooks/hooks.md',
  ]) {
    test(`${path} is not`, () => assert.ok(!isAgentConfigCandidate(path)));
  }
});

describe("a file tool's write asks as the review holds", () => {
  const policy = { mode: 'auto-edit' as const, deniedCommands: [] };
  test('a linked extension manifest naming mcpServers, and OpenHands scripts, ask; a manifest naming none does not', () => {
    const manifest = JSON.stringify({ name: 'db', mcpServers: { db: { command: 'node', args: ['s.js'] } } });
    assert.ok(writeNeedsApproval(policy, { paths: ['agents/extensions/db/gemini-extension.json'], text: manifest }));
    assert.ok(!writeNeedsApproval(policy, { paths: ['agents/extensions/db/gemini-extension.json'], text: '{"name":"db"}' }));
    assert.ok(writeNeedsApproval(policy, { paths: ['.openhands/setup.sh'], text: 'echo' }));
    assert.ok(writeNeedsApproval(policy, { paths: ['.idea/watcherTasks.xml'], text: '<project/>' }));
  });
});

describe('OpenHands', () => {
  test('.openhands is held by name, its scripts and hooks.json followed as a hook is', () => {
    for (const path of ['.openhands/setup.sh', '.openhands/pre-commit.sh', '.openhands/microagents/repo.md', 'sub/.OpenHands/setup.sh']) {
      assert.ok(isHeldByName(path), path);
    }
    for (const path of ['.openhands/setup.sh', '.openhands/pre-commit.sh', '.openhands/hooks.json']) assert.ok(isProgramConfigPath(path), path);
    assert.ok(!isProgramConfigPath('.openhands/microagents/repo.md'));
  });
});

describe('which held configs are read', () => {
  for (const path of ['.kiro/hooks/lint.kiro.hook', '.idea/watcherTasks.xml', '.idea/runConfigurations/Check.xml', '.kiro/settings/mcp.json']) {
    test(`${path} is`, () => assert.ok(isHeldConfigFile(path)));
  }
  for (const path of ['.idea/workspace.xml', '.idea/other.xml', '.idea/libraries/junit.xml', 'src/watcherTasks.xml', '.kiro/steering/x.md', 'hooks/x.hook']) {
    test(`${path} is not`, () => assert.ok(!isHeldConfigFile(path)));
  }
});

describe('a held config read by its content', () => {
  test('a Kiro `.kiro.hook` (JSON): then.command is a command line, its other strings values', () => {
    const read = programConfigTexts(
      JSON.stringify({ when: { type: 'fileEdited', patterns: ['**/*.ts'] }, then: { type: 'runCommand', command: 'tools/check --fast' } }),
    );
    assert.equal(read.json, true);
    assert.equal(read.commands, 'tools/check --fast');
    assert.ok(read.values.includes('**/*.ts'));
  });

  const WATCHERS = `<?xml version="1.0" encoding="UTF-8"?>
<project version="4">
  <component name="ProjectTasksOptions">
    <TaskOptions isEnabled="true">
      <option name="program" value="$ProjectFileDir$/tools/agent-check" />
      <option name="arguments" value="--file $FilePath$ &amp; tools&#x2f;more" />
      <option name="workingDir" value="$PROJECT_DIR$" />
    </TaskOptions>
  </component>
</project>
`;

  test("a File Watcher's program and arguments are one command line, the project's folder `.`, another macro a glob", () => {
    const read = programConfigTexts(WATCHERS);
    assert.equal(read.json, true);
    assert.ok(read.commands.split('\n').includes('./tools/agent-check --file * & tools/more'), read.commands);
    assert.ok(read.values.includes('./tools/agent-check'));
    assert.ok(read.values.includes('.'));
  });

  test('a value with a macro known only when it runs is read as a command line too', () => {
    const read = programConfigTexts('<c><option name="SCRIPT_PATH" value="$MODULE_DIR$/run.sh"/><x>$USER_HOME$/bin/x</x></c>');
    assert.ok(read.commands.split('\n').includes('*/run.sh'), read.commands);
    assert.ok(read.values.includes('~/bin/x'));
  });

  test('CDATA is text, comments and declarations are skipped', () => {
    const read = programConfigTexts('<?xml version="1.0"?><!DOCTYPE a><a><!-- <b v="no"/> --><![CDATA[sh <tools>/x]]></a>');
    assert.deepEqual(read.values, ['sh <tools>/x']);
  });

  test('no entity is expanded: a DTD or an entity declaration makes the whole change set wait', () => {
    assert.throws(() => xmlConfig('<!DOCTYPE a [<!ENTITY p "tools/x">]><a v="&p;"/>'), ConfigTooLarge);
    assert.throws(() => xmlConfig('<!DOCTYPE a [<!ATTLIST a v CDATA "tools/x">]><a/>'), ConfigTooLarge);
  });

  test('XML that is not well formed, or too deep, is read by all its values and its whole text', () => {
    const broken = programConfigTexts('<a><b program="tools/x"></a>');
    assert.ok(broken.values.includes('tools/x'));
    assert.equal(broken.commands, '<a><b program="tools/x"></a>');
    const deep = `${'<a>'.repeat(300)}<o v="$ProjectFileDir$/deep"/>${'</a>'.repeat(300)}`;
    const read = programConfigTexts(deep);
    assert.ok(read.values.includes('./deep'));
    assert.ok(read.commands.includes('./deep'));
  });

  test('an element or option named __proto__ is an ordinary key', () => {
    const read = programConfigTexts('<a><option name="__proto__" value="tools/x"/><option name="program" value="tools/y"/></a>');
    assert.ok(read.values.includes('tools/x'));
    assert.ok(read.commands.includes('tools/y'));
  });

  test('a text that is not XML is left to the JSON and whole-text readings', () => {
    assert.equal(xmlConfig('#!/bin/sh\n./tools/setup\n'), undefined);
    assert.equal(programConfigTexts('#!/bin/sh\n./tools/setup\n').commands, '#!/bin/sh\n./tools/setup\n');
  });
});
