import { stripVTControlCharacters } from 'node:util';

/**
 * OSC sequences (window titles, VS Code's shell-integration marks) up to BEL or
 * ST. Node's stripper stops an OSC at its first space, which would leave the
 * command line a 633 mark carries in the output.
 */
// eslint-disable-next-line no-control-regex
const OSC_SEQUENCE = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Terminal output as plain text for the model: no colours, cursor moves, marks or carriage returns. */
export function plainTerminalText(output: string): string {
  return stripVTControlCharacters(output.replace(OSC_SEQUENCE, '')).replace(/\r/g, '');
}
