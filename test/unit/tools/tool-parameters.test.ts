// The built-in tools' JSON schemas are written out in toolParameters.ts (zod's JSON-schema writer stays out of the
// main bundle and out of activation): each must be what parametersOf makes of the tool's own argument schema.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as z from 'zod/mini';
import { parametersOf } from '../../../src/tools/common/tool';
import { TOOL_PARAMETERS } from '../../../src/tools/common/toolParameters';
import { codeNavigationArguments } from '../../../src/tools/common/codeNavigationTool';
import { commandOutputArguments } from '../../../src/tools/common/commandOutput';
import { editFileArguments } from '../../../src/tools/common/editFile';
import { getProblemsArguments } from '../../../src/tools/common/getProblems';
import { listFilesArguments } from '../../../src/tools/common/listFiles';
import { readFileArguments } from '../../../src/tools/common/readFile';
import { runCommandArguments } from '../../../src/tools/common/runCommand';
import { runSubagentArguments } from '../../../src/tools/common/runSubagent';
import { searchTextArguments } from '../../../src/tools/common/searchText';
import { writeFileArguments } from '../../../src/tools/common/writeFile';
import { toolsFor } from '../../../src/tools/common/registry';
import { runSubagentTool } from '../../../src/tools/common/runSubagent';

const SCHEMAS: Record<string, z.ZodMiniType> = {
  code_navigation: codeNavigationArguments,
  command_output: commandOutputArguments,
  edit_file: editFileArguments,
  get_problems: getProblemsArguments,
  list_files: listFilesArguments,
  read_file: readFileArguments,
  run_command: runCommandArguments,
  run_subagent: runSubagentArguments,
  search_text: searchTextArguments,
  write_file: writeFileArguments,
};

describe('the tools JSON schemas written out', () => {
  test('each is what its argument schema makes (on a failure, the value to write is in the message)', () => {
    assert.deepEqual(Object.keys(TOOL_PARAMETERS).sort(), Object.keys(SCHEMAS).sort());
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const made = parametersOf(schema);
      assert.deepEqual(TOOL_PARAMETERS[name], made, `${name}: write ${JSON.stringify(made)}`);
    }
  });

  test('every built-in tool the API gets uses one (update_plan writes its own)', () => {
    for (const tool of [...toolsFor(true), runSubagentTool]) {
      if (tool.name === 'update_plan') continue;
      assert.equal(tool.parameters, TOOL_PARAMETERS[tool.name], tool.name);
    }
  });
});
