/**
 * The arguments that start the emulator's command line (test/emulator/main.ts) with `args`. Under npm run test:unit
 * (or test:integration) that is the copy the runner compiled with the tests (GATEWAY_EMULATOR_CLI): tsx compiling
 * the emulator's sources again cost about 0.6 CPU-s a start. A file run on its own goes through tsx.
 */
export function emulatorCommand(args: readonly string[]): string[] {
  const compiled = process.env.GATEWAY_EMULATOR_CLI;
  return compiled ? ['--enable-source-maps', compiled, ...args] : ['--import', 'tsx', 'test/emulator/main.ts', ...args];
}
