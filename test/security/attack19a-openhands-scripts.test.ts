// Attack (round 19a): OpenHands' repository scripts, `.openhands/setup.sh` and `.openhands/pre-commit.sh`.
//
// OpenHands (docs.openhands.dev, "Repository Customization") runs `.openhands/setup.sh` "every time OpenHands begins
// working with your repository" (its session bootstrap: installs, environment), and installs `.openhands/pre-commit.sh`
// as the repository's Git pre-commit hook for the commits it makes; its CLI and local GUI run them in the runtime
// that works on the user's checkout. These are scripts an agent finds by name and runs unasked, like Cline's
// `.clinerules/hooks` or `.cursor`'s, but `.openhands` is no folder the review knows by name (heldNames.ts), and the
// shape rule (agentConfigs.ts) reads configs (JSON, YAML, TOML, `…rc`), not scripts. So a sandboxed command that
// writes either file has it land, and the next OpenHands session runs it outside this extension's sandbox.
// (`.openhands/hooks.json`, Claude-compatible, names `hooks` and is held by its shape; the scripts it names are not
// followed, which is the documented limit of the shape rule, not reported here.)
// Control (passes on the current code): the same script under `.clinerules/hooks/` (Cline's hooks folder), held.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeFixture, plantFile, sandboxHere, type Fixture } from './harness';

describe("attack: OpenHands' setup and pre-commit scripts land", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
  });
  after(async () => fixture.remove());

  for (const [path, control] of [
    ['.openhands/setup.sh', false],
    ['.openhands/pre-commit.sh', false],
    ['.clinerules/hooks/TaskStart', true],
  ] as const) {
    test(`${control ? 'control: ' : ''}${path} is held`, async () => {
      const { landed, review } = await plantFile(fixture, path, '#!/bin/bash\necho PWNED-19A\n');
      assert.ok(
        !landed,
        `ESCAPED: ${path}, which the agent runs at its next session, landed unasked (held: ${JSON.stringify(review.moved.map((e) => e.path))})`,
      );
    });
  }
});
