// Preloaded (node -r) into code-servers older than 4.1xx that have no --vscode-option:
// their command line refuses every option it does not list, so VS Code's own
// --enable-smoke-test-driver (which the payload of extension tests needs) cannot be passed.
// This adds it to code-server's option table before code-server parses its arguments; the
// parsed options go on to VS Code's server unchanged. It acts only in code-server's entry
// (the wrapper and the child it forks, both out/node/entry); the other processes that
// inherit the preload (extension hosts, pty hosts) are left alone.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

const main = process.argv[1] ?? '';
const cliModule = path.join(path.dirname(main), 'cli.js');
if (/^entry(\.js)?$/.test(path.basename(main)) && existsSync(cliModule)) {
  const cli = require(cliModule);
  cli.options['enable-smoke-test-driver'] ??= { type: 'boolean', description: 'VS Code: enable the smoke-test driver.' };
}
