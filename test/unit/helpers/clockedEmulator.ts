// The emulator a file of limit tests shares, on the tests' virtual clock (background-requests, limits-pacing).
import { after, before, beforeEach } from 'node:test';
import { startEmulator, type Emulator, type EmulatorOptions, type KeyConfig } from '../../emulator/server';

export interface ClockedEmulatorOptions {
  clock: NonNullable<EmulatorOptions['clock']>;
  /** The rate window, shortened where the tests need many windows. */
  windowMs: number;
  keys: KeyConfig[];
  /** Before each test, ahead of the emulator's reset (moving the clock a window on, so no test inherits another's). */
  beforeEachTest?: () => void;
}

/**
 * Starts the emulator before the file's tests and closes it after them, resetting it before each;
 * returns the running emulator, for use inside the tests.
 */
export function clockedEmulator(options: ClockedEmulatorOptions): () => Emulator {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await startEmulator({ port: 0, clock: options.clock, windowMs: options.windowMs, keys: options.keys });
  });
  after(() => emulator?.close());
  beforeEach(() => {
    options.beforeEachTest?.();
    running().reset();
  });
  const running = (): Emulator => {
    if (!emulator) throw new Error('the emulator runs only while the tests do');
    return emulator;
  };
  return running;
}
