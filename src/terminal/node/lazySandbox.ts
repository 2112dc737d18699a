/**
 * The `auto` sandbox as the window holds it from activation: bubblewrap.ts's BubblewrapSandbox is built into the
 * change review's file (change-review.js, loaded at first use) and made here the first time a session asks for it
 * (its probe, its session, a command's layer), so activation and every session that never runs a command under
 * `auto` neither read nor compile it.
 */
import type { BubblewrapOptions, BubblewrapSession, SandboxAvailability } from './bubblewrap';
import { changeReviewParts } from './changeReviewLoader';
import type { LayerArming } from './controlGuard';

/** What the window uses of the sandbox (bubblewrap.ts's BubblewrapSandbox implements it). */
export interface LoadedSandbox {
  available(): Promise<SandboxAvailability>;
  forSession(sessionId: string): BubblewrapSession;
  layersFor(sessionId: string): LayerArming;
  dispose(): void;
}

export class BubblewrapSandbox implements LoadedSandbox {
  private loaded: LoadedSandbox | undefined;

  constructor(private readonly options: BubblewrapOptions = {}) {}

  private get sandbox(): LoadedSandbox {
    this.loaded ??= new (changeReviewParts().BubblewrapSandbox)(this.options);
    return this.loaded;
  }

  available(): Promise<SandboxAvailability> {
    return this.sandbox.available();
  }

  forSession(sessionId: string): BubblewrapSession {
    return this.sandbox.forSession(sessionId);
  }

  layersFor(sessionId: string): LayerArming {
    return this.sandbox.layersFor(sessionId);
  }

  /** The window is closing: a sandbox never made has nothing to remove (and is not loaded for that). */
  dispose(): void {
    this.loaded?.dispose();
  }
}
