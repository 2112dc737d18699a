/**
 * The JSON schemas the API gets for the built-in tools, written out rather than made from their zod schemas at load:
 * zod's JSON-schema writer was 20 KB of the main bundle and ran for every tool while the extension activated.
 * Each is exactly what parametersOf(schema) in tool.ts makes of the tool's argument schema (`<name>Arguments` in its
 * file): test/unit/tools/tool-parameters.test.ts fails, printing the new value, when one of them changes.
 */
export const TOOL_PARAMETERS: Readonly<Record<string, Record<string, unknown>>> = {
  read_file: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, e.g. "src/index.ts".' },
      startLine: { type: 'integer', minimum: 1, description: 'First line, 1-based (default 1).' },
      endLine: { type: 'integer', minimum: 1, description: 'Last line, inclusive (default: end).' },
    },
    required: ['path'],
  },
  list_files: {
    type: 'object',
    properties: {
      folder: { type: 'string', description: 'Folder to list (default ".", the root).' },
      glob: { type: 'string', description: 'Only files matching this glob, e.g. "**/*.ts"; with no "/", names at any depth.' },
    },
  },
  search_text: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'Exact, case-sensitive text, or /regex/ or /regex/i.' },
      glob: { type: 'string', description: 'Only files matching this glob, e.g. "**/*.ts".' },
      folder: { type: 'string', description: 'Folder to search (default: all).' },
    },
    required: ['pattern'],
  },
  edit_file: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The file to change.' },
      old_text: { type: 'string', description: 'Text to replace.' },
      new_text: { type: 'string', description: 'Its replacement.' },
      edits: {
        type: 'array',
        items: { type: 'object', properties: { old_text: { type: 'string' }, new_text: { type: 'string' } }, required: ['old_text', 'new_text'] },
        description: 'Several {old_text,new_text}, in order, all or none.',
      },
    },
    required: ['path'],
  },
  write_file: {
    type: 'object',
    properties: { path: { type: 'string', description: 'The file to write.' }, content: { type: 'string', description: 'Its complete new content.' } },
    required: ['path', 'content'],
  },
  run_command: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'Shell command line.' },
      cwd: { type: 'string', description: 'Working folder (default ".").' },
      timeout: { type: 'number', exclusiveMinimum: 0, maximum: 600, description: 'Seconds before it is stopped (default 60).' },
      background: { type: 'boolean', description: 'Keep running (server, watcher); returns an id.' },
    },
    required: ['command'],
  },
  command_output: {
    type: 'object',
    properties: { id: { type: 'string', description: 'Its id, e.g. "bg1".' }, stop: { type: 'boolean', description: 'Kill it first.' } },
    required: ['id'],
  },
  get_problems: { type: 'object', properties: { path: { type: 'string', description: 'A file or folder (default: the whole workspace).' } } },
  code_navigation: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: ['definition', 'references', 'outline', 'symbols'],
        description: 'outline needs path; symbols, symbol; others, all three.',
      },
      path: { type: 'string', description: 'A file, e.g. "a.ts".' },
      line: { type: 'integer', minimum: 1, description: '1-based line number.' },
      symbol: { type: 'string', description: 'The name on that line, or a query.' },
    },
    required: ['action'],
  },
  run_subagent: { type: 'object', properties: { task: { type: 'string', description: 'The task, self-contained.' } }, required: ['task'] },
};
