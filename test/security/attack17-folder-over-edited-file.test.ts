// Attack (round 17): a folder put where a file was lands over the user's edit made while the command ran.
// README (Security): what is held includes "any path someone else changed while the command ran".
// changeLayer.ts entryOf sets `changedOutside` (the workspace entry's ctime after the command started) for files,
// links and deletions, but returns early for a folder: a folder entry is never 'changed-outside'. A command that
// removes a file and makes a folder of its name leaves a folder in its layer; landInto's 'directory' case removes
// whatever the workspace has there (`rm(target, { recursive: true })` when it is not a folder) and makes the folder.
// So the user's save of notes.txt while the command ran is thrown away, unasked.
// Control: the same command that only removes notes.txt, with the same edit meanwhile, is held (changed-outside).
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const EDIT = 'the user saved this while the command ran\n';

describe('attack: a folder replaces a file the user changed while the command ran', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture | undefined;
  beforeEach(async () => {
    await fixture?.remove();
    fixture = await makeFixture();
    await writeFile(join(fixture.root, 'notes.txt'), 'before\n');
  });
  after(async () => fixture?.remove());

  /** Runs `command`; once it has begun (it prints `started`), the user saves notes.txt in the workspace. */
  const runWithEdit = async (command: string) => {
    let edited: Promise<void> | undefined;
    const result = await fixture!.run(`echo started; ${command}; sleep 1.5`, {
      onOutput: (text) => {
        if (!edited && text.includes('started')) {
          edited = new Promise((resolve) => setTimeout(resolve, 300)).then(() => writeFile(join(fixture!.root, 'notes.txt'), EDIT));
        }
      },
    });
    await edited;
    return result;
  };

  test('control: removing the file is held when the user changed it meanwhile', async () => {
    const result = await runWithEdit('rm notes.txt');
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(fixture!.root, 'notes.txt'), 'utf8').catch(() => ''), EDIT, `control: ${JSON.stringify(result.review)}`);
  });

  test('replacing the file with a folder is held when the user changed it meanwhile', async () => {
    const result = await runWithEdit('rm notes.txt && mkdir notes.txt');
    assert.equal(result.exitCode, 0, result.output);
    const text = await readFile(join(fixture!.root, 'notes.txt'), 'utf8').catch((error: NodeJS.ErrnoException) => `(${error.code})`);
    assert.equal(
      text,
      EDIT,
      `the user's edit of notes.txt, made while the command ran, was replaced by its folder unasked; review: ${JSON.stringify(result.review)}`,
    );
  });
});
