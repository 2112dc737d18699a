/** Where Copilot's instructions files are (instructionFiles.ts reads them; projectInstructions.ts sends them): shared by both bundles. */
export const INSTRUCTIONS_FOLDER = '.github/instructions';
export const INSTRUCTIONS_SUFFIX = '.instructions.md';
