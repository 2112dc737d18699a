// The folders a shell text's commands work in, read from the lexer's words (src/terminal/common/shellFolders.ts), and
// how the review spells them (src/terminal/node/textFolders.ts). The attacks these close, run in the real sandbox, are
// test/security/attack19a-quoted-hook-folders.test.ts, attack19a-cd-options.test.ts and
// attack19a-interpreter-folder-programs.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commandFolders, relativeFolder } from '../../../src/terminal/common/shellFolders';
import { shellLex } from '../../../src/terminal/common/shellLexer';
import { ConfigTooLarge } from '../../../src/terminal/node/gitStructure';
import { textFolders } from '../../../src/terminal/node/textFolders';

const text = (word: { parts: { kind: string; text?: string; spelling?: string }[] }) =>
  word.parts.map((part) => (part.kind === 'text' ? part.text : part.spelling)).join('');
const folders = (line: string) => commandFolders(shellLex(line).words).folders.map(text);
const interpreted = (line: string) => commandFolders(shellLex(line).words).interpreted.map(text);

describe("a command's folder words, from the lexer", () => {
  test("cd and pushd: quoted, after cd's options, `--`", () => {
    assert.deepEqual(folders('cd "tools" && ./check'), ['tools']);
    assert.deepEqual(folders('cd \'tools\'; pushd "other dir"'), ['tools', 'other dir']);
    assert.deepEqual(folders('cd -P tools'), ['tools']);
    assert.deepEqual(folders('cd -L -e tools'), ['tools']);
    assert.deepEqual(folders('cd -P -- -tools'), ['-tools']);
    assert.deepEqual(folders("cd $'tool\\x73'"), ['tools']);
    assert.deepEqual(folders('cd tool\\s'), ['tools']);
    assert.deepEqual(folders('(cd tools; ./check)'), ['tools']);
    assert.deepEqual(folders('builtin cd tools'), ['tools']);
  });

  test('cd alone and `cd -` name no folder', () => {
    assert.deepEqual(folders('cd; cd -; cd -P'), []);
  });

  test("the runners' own folder options, in either form", () => {
    assert.deepEqual(folders('make -C "tools" check'), ['tools']);
    assert.deepEqual(folders('make -Ctools --directory=more check'), ['tools', 'more']);
    assert.deepEqual(folders('npm --prefix "tools" run lint'), ['tools']);
    assert.deepEqual(folders('yarn --cwd tools lint; yarn --cwd=web lint'), ['tools', 'web']);
    assert.deepEqual(folders('pnpm --dir tools run lint; pnpm -C web lint'), ['tools', 'web']);
    assert.deepEqual(folders('bun --cwd tools run lint'), ['tools']);
    assert.deepEqual(folders('task -d tools check; task --dir=web check'), ['tools', 'web']);
    assert.deepEqual(folders('just -d tools x; just --working-directory web x'), ['tools', 'web']);
    // attack20a-hook-folders: mise's --cd, flox's -d.
    assert.deepEqual(folders('mise --cd tools run lint; mise --cd=web run x; mise -C a run y'), ['tools', 'web', 'a']);
    assert.deepEqual(folders('flox activate -d tools -- true; flox activate --dir web'), ['tools', 'web']);
    assert.deepEqual(folders('env --chdir=tools make check; env -C web make'), ['tools', 'web']);
  });

  test('`-d` is a folder only after task and just; a written word is none', () => {
    assert.deepEqual(folders('mkdir -d tools'), []);
    assert.deepEqual(folders('echo x > --cwd'), []);
  });

  test('a computed folder is kept with its expansion, a substitution inside read as its own command', () => {
    assert.deepEqual(folders('cd "$(dirname "$0")/.." && cd t*'), ['$(dirname "$0")/..', 't*']);
  });

  test('an interpreter: the word it runs, none for a module or a string', () => {
    assert.deepEqual(interpreted('node hooks; node .; python3 pyhook; /usr/bin/python3.12 tool'), ['hooks', '.', 'pyhook', 'tool']);
    assert.deepEqual(interpreted('python3 -m tools.hook; node -e "x"'), []);
  });

  test('many distinct words then many -d words: read in linear time (attack20a-slow-folder-options)', () => {
    const words = Array.from({ length: 6000 }, (_, index) => `w${index}`).join(' ');
    const line = `task ${words} ${'-d x '.repeat(10_000)}`;
    const started = Date.now();
    assert.equal(folders(line).length, 10_000);
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.deepEqual(folders(`ls ${words} -d x`), []);
  });

  test('a text stops being read when the review is overdue', () => {
    assert.throws(() => textFolders('cd a\ncd b', false, () => true), ConfigTooLarge);
    assert.deepEqual(textFolders('cd a\ncd b', false, () => false).places, ['a', 'b']);
  });

  test("an interpreter's options are skipped with its grammar (attack20a-interpreter-options)", () => {
    assert.deepEqual(interpreted('python3 -u pyhook; python3 -X dev a; python3 -Xdev b; python3 -uW error c; python3 -- d'), ['pyhook', 'a', 'b', 'c', 'd']);
    assert.deepEqual(interpreted('python3 -u -m tools.hook; python3 -uc "x"; python3 -X dev -m y'), []);
    assert.deepEqual(interpreted('node --no-warnings hooks; node -r ./setup x; node --import=tsx y; node --require ./s z'), ['hooks', 'x', 'y', 'z']);
    assert.deepEqual(interpreted('node --no-warnings -e "x"; node --print 1'), []);
    // An unknown option: both its next word and the one after.
    assert.deepEqual(interpreted('node --some-option v hooks'), ['v', 'hooks']);
  });
});

describe('the folders the review reads a text from (textFolders)', () => {
  test('places, spelled as bash reads them', () => {
    assert.deepEqual(textFolders('cd -P -- "tools" && make check\nyarn --cwd=web lint', false).places, ['tools', 'web']);
    assert.deepEqual(textFolders('cd "$(dirname "$0")/../tools"', false).places, ['tools']);
    assert.deepEqual(textFolders('cd "$ROOT"', false).places, []);
  });

  test('a folder completed inside a path is held where it lies; at the top the change set waits', () => {
    assert.deepEqual(textFolders('cd tools/$x && ./check', false).held, ['tools']);
    assert.deepEqual(textFolders('cd tools/*/', false).held, ['tools']);
    assert.throws(() => textFolders('cd t* && make', false), ConfigTooLarge);
  });

  test('a stray quote on another line does not hide a folder (read line by line too)', () => {
    assert.deepEqual(textFolders("desc: don't\nmake -C tools lint", false).places, ['tools']);
  });

  test("an interpreter's bare word, not a path or a computed one", () => {
    assert.deepEqual(textFolders('node hooks; node scripts/x; node $x; node .', false).interpreted, ['hooks', '.']);
  });
});

describe("a hook's working folder (relativeFolder, shared with the approval)", () => {
  test('relative folders inside the workspace', () => {
    assert.equal(relativeFolder('./tools/'), 'tools');
    assert.equal(relativeFolder('.'), '.');
    assert.equal(relativeFolder(''), '.');
    assert.equal(relativeFolder('../x'), undefined);
    assert.equal(relativeFolder('/abs'), undefined);
    assert.equal(relativeFolder(3), undefined);
  });
});

describe('a pattern after a value at the start of a folder word', () => {
  test('is a break, as in a name: nothing held, nothing waits', () => {
    assert.deepEqual(textFolders('cd "$ROOT"/* && ./check', false), { places: [], held: [], interpreted: [] });
    assert.throws(() => textFolders('cd ./t*', false), ConfigTooLarge);
  });
});

describe('a folder given as `$(dirname path)`', () => {
  test("is that path's folder", () => {
    assert.deepEqual(textFolders('cd $(dirname tools/x) && ./check', false).places, ['tools']);
    assert.deepEqual(textFolders('cd "$(dirname "tools/sub/x")/.."', false).places, ['tools/sub/..']);
    assert.deepEqual(textFolders('cd "$(dirname "$0")"', false).places, []);
  });
});
