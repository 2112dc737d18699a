// How a failed @gateway question's reason reads in the chat (issue 39, item 1): the error's own words, its
// addresses as code (VS Code's chat otherwise linkified "http://…/v1 \(connect …\)" into one link, backslashes
// shown), and nothing in it taken as Markdown: no link, emphasis or icon.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { failureMarkdown } from '../../../src/chat/common/failureText';
import { ConnectionError } from '../../../src/gateway/common';
import { makeClient, signal } from '../helpers/clients';

describe('failureMarkdown', () => {
  test("a refused connection's message, from the client over real HTTP: the address as code, the rest plain text", async () => {
    const port = await closedPort();
    const error = await makeClient(`http://127.0.0.1:${port}/v1`, 'demo-key')
      .chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }, { signal: signal() })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionError);
    const markdown = failureMarkdown(error.message);
    assert.ok(markdown.includes(`\`http://127.0.0.1:${port}/v1\``), markdown);
    assert.doesNotMatch(markdown, /(?<!`)http:\/\/(?![^`]*`)/, 'no address outside a code span, to be linkified');
    assert.match(markdown, /^\$\(error\) Could not reach the Gateway at `http:\/\/127\.0\.0\.1:\d+\/v1` \\\(connect ECONNREFUSED/);
  });

  test('Markdown and icons in a message are shown as text', () => {
    const markdown = failureMarkdown('Model [x](command:gateway.setApiKey) is *gone* $(alert) <b>now</b>');
    assert.doesNotMatch(markdown, /(?<!\\)\[x(?<!\\)\]/);
    assert.doesNotMatch(markdown, /(?<!\\)\*gone/);
    assert.doesNotMatch(markdown, /(?<!\\)\$\(alert/);
    assert.doesNotMatch(markdown, /(?<!\\)<b>/);
  });

  test('an address with a backtick still makes one code span', () => {
    assert.match(failureMarkdown('at https://a.example/`v1 now'), /``https:\/\/a\.example\/`v1`` now$/);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
