// The shell lexer (src/terminal/common/shellLexer.ts): each of bash's rules for reading a word, and a table of
// spellings read by real bash beside the lexer (bash is the reference: where they differ, the lexer is wrong).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ansiDecoded, type LexedWord, MAX_NESTING, MAX_SHELL_TEXT, shellLex } from '../../../src/terminal/common/shellLexer';

/** A word's literal text, its expansions left out (in the reference table every expansion's value is empty). */
const literal = (word: LexedWord) => word.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
/** The words the command line itself has (a substitution's own words are not arguments of it). */
const words = (text: string) =>
  shellLex(text)
    .words.filter((word) => word.nested === undefined)
    .map(literal);

/** What bash makes of `text` as the arguments of printf: each word, as bash expands it. */
function bashWords(text: string): string[] {
  const output = execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${text}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
  });
  return output.split('\0').slice(0, -1);
}

describe('the shell lexer read beside real bash', () => {
  // Every expansion here is empty when bash runs it (an unset variable, `$(:)`, a backquoted `true`), so the lexer's
  // literal text of a word is bash's whole word.
  const SPELLINGS = [
    String.raw`$'tools\u2flint.sh'`,
    String.raw`$'scripts\U2frun.sh'`,
    String.raw`$'tools\x2flint.sh'`,
    String.raw`$'a\x2fb\x41'`,
    String.raw`$'a\/b'`,
    String.raw`$'a\qb'`,
    String.raw`$'a\xg'`,
    String.raw`$'\u' $'\x'`,
    String.raw`$'\101\1012' $'\060\0601'`,
    String.raw`$'ab\0cd'ef`,
    String.raw`$'a\'b' $'a\"b' $'a\\b' $'a\?b'`,
    String.raw`$'\u00e9t\u00E9.sh'`,
    String.raw`$'a\cAb' $'a\c'`,
    String.raw`tools/li$''nt.sh tools/fm$""t.sh tools/ch$(:)eck.sh tools/li\`true\`nt.sh`,
    String.raw`tools/a''b.sh tools/c""d.sh a\ b.sh che\ck.sh`,
    String.raw`"a\$b\"c\\d\e" 'a\b' $"loc\"al"`,
    'x\\${UNSET_A}y a\\$UNSET_B${UNSET_C}b',
    String.raw`"it's" '"' a#b "#c"`,
    String.raw`"$(: ")")x" a$(: $(: )')')b`,
    String.raw`a$(: $((1+2)))b`,
  ];
  for (const spelling of SPELLINGS) {
    test(spelling, () =>
      assert.deepEqual(
        words(spelling).filter((word, index, all) => word !== '' || all.length === 1),
        bashWords(spelling),
      ),
    );
  }
});

describe('text bash reads twice, read again by the lexer beside real bash', () => {
  // Each line prints (to stderr, by the inner reading's echo) the words bash finally gives it: each must be a word the
  // lexer reads (at any nesting), spelled as bash spells it.
  const PRINT = '>&2 echo';
  const BQ = '`';
  const TWICE = [
    String.raw`out=${BQ}${PRINT} tools/li\\nt.sh a\\$b${BQ}`,
    String.raw`out="${BQ}${PRINT} \"tools/q\\uo.sh\"${BQ}"`,
    String.raw`n=$(( $(${PRINT} tools/ch\eck.sh; echo 0) + 1 ))`,
    String.raw`sh -c '${PRINT} tools/ch\eck.sh'`,
    String.raw`bash -c "${PRINT} tools/li\\\\nt.sh"`,
    String.raw`env X=1 bash -ec '${PRINT} tools/e\nv.sh' name`,
    String.raw`eval '${PRINT}' 'tools/fm\t.sh' "\$'tools\\x2fa.sh'"`,
    String.raw`sh -c "bash -c '${PRINT} tools/d\\\\eep.sh'"`,
    `bash <<EOF\n${PRINT} tools/ru\\\\n.sh\nEOF`,
    `bash <<'EOF'\n${PRINT} tools/q\\uoted.sh\nEOF`,
    `sh <<-X\n\t${PRINT} tools/t\\\\ab.sh\n\tX`,
  ];
  for (const text of TWICE) {
    test(text, () => {
      const ran = spawnSync('bash', ['--norc', '--noprofile', '-c', text], {
        encoding: 'utf8',
        // No input: bash given a socket or pipe there reads ~/.bashrc (which would print into what is compared).
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      const bash = ran.stderr.split(/\s+/).filter((word) => word !== '');
      const { words: lexed, complete } = shellLex(text);
      assert.equal(complete, true);
      assert.ok(bash.length > 0);
      for (const word of bash) assert.ok(lexed.map(literal).includes(word), `${word} is not among ${JSON.stringify(lexed.map(literal))}`);
    });
  }

  test('a second reading counts toward the nesting bound and the length bound', () => {
    const quoted = (depth: number): string => (depth === 0 ? 'x' : `eval ${JSON.stringify(quoted(depth - 1))}`);
    assert.equal(shellLex(quoted(MAX_NESTING)).complete, true);
    assert.equal(shellLex(quoted(MAX_NESTING + 1)).complete, false);
    // The string is read twice: its length counts twice.
    assert.equal(shellLex(`sh -c ${'a'.repeat(MAX_SHELL_TEXT * 0.4)}`).complete, true);
    assert.equal(shellLex(`sh -c ${'a'.repeat(MAX_SHELL_TEXT * 0.6)}`).complete, false);
  });

  test('busybox sh -c, after a runner, is read again (no busybox here to compare with)', () => {
    const all = shellLex(String.raw`command busybox sh -c 'sh tools/bu\sy.sh'`).words.map(literal);
    assert.ok(all.includes('tools/busy.sh'), JSON.stringify(all));
  });

  test('a command that gives no shell the string does not read it again', () => {
    assert.deepEqual(words("echo -c 'a\\b'"), ['echo', '-c', 'a\\b']);
    assert.equal(
      shellLex("echo -c 'a\\b'").words.some((word) => word.nested !== undefined),
      false,
    );
  });
});

describe('the shell lexer, rule by rule', () => {
  test("$'…' takes bash's short escapes: \\x 1–2 hex digits, \\u 1–4, \\U 1–8, octal 1–3", () => {
    assert.equal(ansiDecoded(String.raw`tools\u2flint.sh`), 'tools/lint.sh');
    assert.equal(ansiDecoded(String.raw`\U2fx \x2fy \57z \x41B`), '/x /y /z AB');
    assert.equal(ansiDecoded(String.raw`\u00411`), 'A1');
  });

  test("$'…' keeps a backslash before what is no escape (`\\/` is not one) and ends at a NUL", () => {
    assert.equal(ansiDecoded(String.raw`a\/b`), String.raw`a\/b`);
    assert.equal(ansiDecoded(String.raw`tools/lint.sh\0x`), 'tools/lint.sh');
    assert.equal(ansiDecoded(String.raw`\c?\ca\c\\`), '\x7f\x01\x1c');
  });

  test("a $' inside single quotes or a comment is no ANSI-C string", () => {
    assert.deepEqual(words("echo '$'\nbash $'tools\\x2flint.sh'"), ['echo', '$', 'bash', 'tools/lint.sh']);
    assert.deepEqual(words("# it's $'\nbash $'tools\\x2flint.sh'"), ['bash', 'tools/lint.sh']);
    assert.deepEqual(words(`echo "$'x'"`), ['echo', "$'x'"]);
  });

  test('an expansion is a part of its word, not a break in it; a substitution gives its own words, nested', () => {
    const [inner, outer] = shellLex('tools/ch$(sh gen.sh)eck.sh').words.slice(-2);
    assert.deepEqual(outer.parts, [
      { kind: 'text', text: 'tools/ch', quoting: 'none' },
      { kind: 'expansion', spelling: '$(sh gen.sh)', type: 'command' },
      { kind: 'text', text: 'eck.sh', quoting: 'none' },
    ]);
    assert.equal(inner.nested, 'command');
    assert.deepEqual(
      shellLex('a`b c`d ${x:-{y}}z $((2*(3+4)))w').words.map((word) => [
        word.nested ?? '',
        word.parts.map((part) => (part.kind === 'text' ? part.text : `<${part.spelling}>`)).join(''),
      ]),
      [
        ['command', 'b'],
        ['command', 'c'],
        ['', 'a<`b c`>d'],
        ['parameter', 'x:-{y}'],
        ['', '<${x:-{y}}>z'],
        // An arithmetic's inside is read as words too (bash runs the substitutions in it), its parentheses counted.
        ['command', '2*'],
        ['command', '3+4'],
        ['', '<$((2*(3+4)))>w'],
      ],
    );
  });

  test("bash's older arithmetic `$[…]` is an expansion, read as `$((…))` is (its brackets counted)", () => {
    assert.deepEqual(
      shellLex('sh "scripts/step$[n+1]" x$[a[1]+1]y').words.map((word) =>
        word.parts.map((part) => (part.kind === 'text' ? part.text : `<${part.spelling}>`)).join(''),
      ),
      ['sh', 'n+1', 'scripts/step<$[n+1]>', 'a[1]+1', 'x<$[a[1]+1]>y'],
    );
    assert.equal(shellLex('x$[1]').words.at(-1)?.parts[1]?.kind, 'expansion');
  });

  test("each word says the simple command it belongs to, a substitution's words their own", () => {
    const lexed = shellLex('cd "$(dirname x)" && make; sh -c "cd t"').words;
    const byCommand = new Map<number | undefined, string[]>();
    for (const word of lexed) byCommand.set(word.command, [...(byCommand.get(word.command) ?? []), literal(word)]);
    assert.deepEqual([...byCommand.values()], [['cd', ''], ['dirname', 'x'], ['make'], ['sh', '-c', 'cd t'], ['cd', 't']]);
  });

  test("a subshell's parentheses inside a substitution do not end it; a quoted `)` does not either", () => {
    const word = shellLex('x$( (cd a && sh ")" ) )y').words.at(-1);
    assert.deepEqual(
      word?.parts.map((part) => part.kind),
      ['text', 'expansion', 'text'],
    );
  });

  test('a word after `>` is written; a comment starts only at a word start', () => {
    assert.deepEqual(
      shellLex('sh x.sh > log.txt 2>&1 # y.sh').words.map((word) => [literal(word), word.written ?? false]),
      [
        ['sh', false],
        ['x.sh', false],
        ['log.txt', true],
        ['2', false],
        ['1', false],
      ],
    );
  });

  test('past its bounds the reading says it is incomplete', () => {
    assert.equal(shellLex(`${'$('.repeat(MAX_NESTING)}x${')'.repeat(MAX_NESTING)}`).complete, true);
    assert.equal(shellLex(`${'$('.repeat(MAX_NESTING + 1)}x${')'.repeat(MAX_NESTING + 1)}`).complete, false);
    assert.equal(shellLex('a '.repeat(MAX_SHELL_TEXT / 2 + 1)).complete, false);
  });
});
