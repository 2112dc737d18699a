// Finding 4 of issue 21, the reads: a real process keeps re-pointing a folder (`dir`) and final names
// (`f.txt`, `g.txt`) between the workspace and an outside folder (or .git/config) while read_file,
// list_files and the project instructions run up to 1,000 times (helpers/raceWorkspace.ts). Before
// the anchored file operations some returned what was outside; now none: every read goes through a
// handle checked after it was opened.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { instructionsForChat } from '../../src/customization/common/projectInstructions';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { raceLoop } from '../unit/helpers/linkFlipper';
import { raceWorkspace, signal } from '../unit/helpers/raceWorkspace';

const ws = raceWorkspace();

describe('symlinks re-pointed while the tools read (issue 21, finding 4)', () => {
  test('read_file never returns a file outside the workspace or .git/config', async () => {
    const escapes: string[] = [];
    const { runs, through } = await raceLoop(async (i) => {
      const path = ['dir/file.txt', 'f.txt', 'g.txt'][i % 3];
      const read = await ws.call('read_file', { path });
      if (/OUTSIDE|bare = false/.test(read.output)) escapes.push(`${path}: ${read.output.slice(0, 40)}`);
      return read.ok;
    });
    assert.ok(through > 0, `some reads went through while the links pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} reads escaped`);
  });

  test('list_files never lists a folder outside the workspace', async () => {
    const escapes: string[] = [];
    const { runs, through } = await raceLoop(async () => {
      const listed = await ws.call('list_files', { folder: 'dir' });
      // new.txt is only in the outside folder.
      if (/new\.txt/.test(listed.output)) escapes.push(listed.output.slice(0, 80));
      return listed.ok && /file\.txt/.test(listed.output);
    });
    assert.ok(through > 0, `some listings went through while the link pointed inside (${runs} attempts)`);
    assert.deepEqual(escapes, [], `${escapes.length} of ${runs} listings showed the outside folder`);
  });

  test('project instructions never come from an AGENTS.md outside the workspace', async () => {
    let escapes = 0;
    const { runs, through } = await raceLoop(async () => {
      const found = await instructionsForChat(ws.ctx.files, ['dir/x.ts'], defaultProtectedFiles, signal).catch(() => undefined);
      if (found?.text?.includes('OUTSIDE RULES')) escapes++;
      return found?.text?.includes('inside rules') ?? false;
    });
    assert.ok(through > 0, `some reads went through while the link pointed inside (${runs} attempts)`);
    assert.equal(escapes, 0, `${escapes} of ${runs} reads returned the outside AGENTS.md`);
  });
});
