// package.json's contributions for issue 27: what VS Code shows from them (menus, palette titles, the walkthrough's
// completion, chat code blocks) read from the manifest the extension ships, and the keys the code sets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

interface MenuItem {
  command?: string;
  submenu?: string;
  when?: string;
}
const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, MenuItem[]>;
    submenus: { id: string; label: string }[];
    walkthroughs: { steps: { id: string; completionEvents: string[] }[] }[];
    configurationDefaults: Record<string, unknown>;
  };
};
const { contributes } = manifest;
const source = (path: string) => readFileSync(join(__dirname, '..', '..', '..', 'src', path), 'utf8');

describe('contributions (issue 27)', () => {
  test('the editor context menu holds Edit Selection… and Explain Selection under a "Gateway" submenu, beside VS Code\'s own', () => {
    const context = contributes.menus['editor/context'];
    assert.deepEqual(
      context.map((item) => item.command ?? item.submenu),
      ['gateway.editorContext'],
    );
    assert.equal(contributes.submenus.find((submenu) => submenu.id === 'gateway.editorContext')?.label, 'Gateway');
    assert.deepEqual(
      contributes.menus['gateway.editorContext'].map((item) => item.command),
      ['gateway.editSelection', 'gateway.explainSelection'],
    );
  });

  test('the model pickers have distinct palette titles, the ones their QuickPicks show', () => {
    const title = (id: string) => {
      const command = contributes.commands.find((c) => c.command === id)!;
      return `${command.category}: ${command.title}`;
    };
    assert.equal(title('gateway.selectModel'), 'Gateway: Select Chat Model');
    assert.equal(title('gateway.selectAgentModel'), 'Gateway: Select Agent Model');
    const picker = source('models/vscode/modelPicker.ts');
    assert.ok(picker.includes("'Gateway: Select Chat Model'") && picker.includes("'Gateway: Select Agent Model'"));
  });

  test('each walkthrough step is checked off by a context key the extension sets, whichever way the step was done', () => {
    const progress = source('status/vscode/walkthroughProgress.ts');
    for (const step of contributes.walkthroughs[0].steps) {
      const keys = step.completionEvents.filter((event) => event.startsWith('onContext:')).map((event) => event.slice('onContext:'.length));
      assert.equal(keys.length, 1, `${step.id} has an onContext completion event`);
      assert.ok(progress.includes(`'${keys[0]}'`), `${keys[0]} is set by walkthroughProgress.ts`);
    }
  });

  test('chat code blocks wrap, so a command waiting for approval is read whole in a narrow Chat view', () => {
    assert.equal(contributes.configurationDefaults['chat.editor.wordWrap'], 'on');
  });
});
