// What activate() leaves for after it has returned still happens: every step it timed is listed, the status bar
// gets its text, and a refused setting gets its warning (the settings are checked, and refusals announced, only
// once activation is over).
import * as vscode from 'vscode';
import { assert, test } from './harness';
import { waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface ActivationApi {
  statusText(): string | undefined;
  activationSteps(): { name: string; ms: number; cpuMs: number }[];
  recentLog(): string[];
}

async function api(): Promise<ActivationApi> {
  const extension = vscode.extensions.getExtension<ActivationApi>(EXTENSION_ID);
  assert(extension, 'extension not found');
  return extension.activate();
}

test('after activation: every step is listed, and the status bar has its text', async () => {
  const gateway = await api();
  const steps = gateway.activationSteps();
  console.log(`  all steps: ${steps.map((s) => `${s.name} ${s.ms.toFixed(1)} ms (${s.cpuMs.toFixed(1)} CPU)`).join(', ')}`);
  assert(
    steps.some((s) => s.name === 'status bar'),
    `no status bar step among ${steps.map((s) => s.name).join(', ')}`,
  );
  await waitFor('the status bar text, set after activation', () => gateway.statusText());
});

test('after activation: a refused setting gets its warning, naming the setting and the value', async () => {
  const gateway = await api();
  const config = vscode.workspace.getConfiguration('gateway');
  await config.update('temperature', 7, vscode.ConfigurationTarget.Global);
  try {
    const line = await waitFor('the warning in the log', () =>
      gateway
        .recentLog()
        .find((l) => l.includes('settings: "gateway.temperature" must be a number from 0 to 2 (it is 7). Its default applies until it is fixed.')),
    );
    console.log(`  ${line}`);
  } finally {
    await config.update('temperature', undefined, vscode.ConfigurationTarget.Global);
  }
});
