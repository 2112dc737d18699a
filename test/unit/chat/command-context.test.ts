// What a chat request sends as context, and when /explain and /fix send nothing (a request is paid for).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_CODE_HINT, requestContext, TEXT_ONLY_REASON, type ReferenceContent } from '../../../src/chat/common/commandContext';

const file: ReferenceContent = { kind: 'text', attachment: { label: 'src/a.ts', language: 'typescript', content: 'let a = 1;' } };
const image: ReferenceContent = { kind: 'unusable', name: 'image.png', reason: TEXT_ONLY_REASON };
const selection = { label: 'src/open.ts:3-4', content: 'open()' };
const noEditor = () => undefined;
const editor = () => ({ path: 'src/open.ts', attachment: selection });

describe('requestContext', () => {
  it('/explain with nothing attached and no editor sends nothing and says what to do', () => {
    assert.deepEqual(requestContext([], 'explain', noEditor), { kind: 'nothing', notes: [], hint: NO_CODE_HINT });
    assert.equal(requestContext([], 'fix', noEditor).kind, 'nothing');
  });

  it('/fix and /explain with nothing attached never send a protected active file (.env, a key), and say why', () => {
    const protectedFiles = ['.env*', 'id_rsa', '**/.ssh/**'];
    for (const path of ['.env', 'config/.env.local', '/home/me/.ssh/id_rsa', 'C:\\Users\\me\\.ssh\\config']) {
      const active = () => ({ path, attachment: { label: path, content: 'API_KEY=secret' } });
      const result = requestContext([], 'fix', active, protectedFiles);
      assert.equal(result.kind, 'nothing', path);
      assert.match(result.notes.join('\n'), /was not sent: it is a protected file \(it matches `[^`]+` in `gateway\.agent\.protectedFiles`\)/);
      assert.equal(requestContext([], 'explain', active, protectedFiles).kind, 'nothing');
    }
    assert.equal(requestContext([], 'explain', editor, protectedFiles).kind, 'send');
  });

  it('/fix with nothing attached uses the active editor', () => {
    assert.deepEqual(requestContext([], 'fix', editor), { kind: 'send', attachments: [selection], notes: [] });
  });

  it('an attached text file is sent and the editor is not read', () => {
    const result = requestContext([file], 'explain', () => assert.fail('the active editor must not be read'));
    assert.deepEqual(result, { kind: 'send', attachments: [file.attachment], notes: [] });
  });

  it('/explain with only an image attached sends nothing, names the image, and does not fall back to the editor', () => {
    const result = requestContext([image], 'explain', editor);
    assert.deepEqual(result, { kind: 'nothing', notes: ['`image.png` was not sent: only text files can be attached.'], hint: NO_CODE_HINT });
  });

  it('an image next to a text file: the file is sent, the image is named as left out', () => {
    const result = requestContext([image, file], 'fix', editor);
    assert.deepEqual(result, { kind: 'send', attachments: [file.attachment], notes: ['`image.png` was not sent: only text files can be attached.'] });
  });

  it('a plain question is sent without context, even with no editor', () => {
    assert.deepEqual(
      requestContext([], undefined, () => assert.fail('the active editor must not be read')),
      { kind: 'send', attachments: [], notes: [] },
    );
  });

  it('a plain question with an image: sent without it, with a note', () => {
    assert.deepEqual(requestContext([image], undefined, editor), {
      kind: 'send',
      attachments: [],
      notes: ['`image.png` was not sent: only text files can be attached.'],
    });
  });
});
