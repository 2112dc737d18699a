// Issue 41 in a real VS Code: export to a team's collector turned on through the user settings, a chat answer
// and an agent session, and a local OTLP receiver (decoding with the official OTLP protobuf schema) gets their
// metrics: the resource names the user and the version, the input tokens equal what the emulator billed.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';
import { pointsOf, resourceOf, startOtlpReceiver, total } from '../../unit/helpers/otlpReceiver';

interface TelemetryApi {
  lastChatAnswer(): string | undefined;
  recentLog(): string[];
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

test(
  'For teams: export turned on in the settings sends a session’s metrics to the collector, the tokens as the emulator billed them',
  async () => {
    const extension = vscode.extensions.getExtension<TelemetryApi>(EXTENSION_ID)!;
    const gateway = await extension.activate();
    const version = String((extension.packageJSON as { version: string }).version);
    const receiver = await startOtlpReceiver();
    const settings = vscode.workspace.getConfiguration('gateway');
    try {
      await resetEmulator();
      await settings.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key was not stored');
      await settings.update('chatModel', 'gw-chat', vscode.ConfigurationTarget.Global);
      await settings.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('gateway.setCollectorHeaders', 'Authorization=Bearer%20e2e-collector-token');
      await settings.update('telemetry.endpoint', receiver.endpoint, vscode.ConfigurationTarget.Global);
      await settings.update('telemetry.identity', 'e2e-user', vscode.ConfigurationTarget.Global);
      await settings.update('telemetry.enabled', true, vscode.ConfigurationTarget.Global);
      await waitFor(
        'the exporter to start',
        () => gateway.recentLog().some((line) => line.includes(`telemetry: exporting metrics to ${receiver.endpoint}/v1/metrics`)),
        15_000,
      );

      const mark = (await emulatorRequests()).length;
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway what does the team see?' });
      await waitFor('the @gateway answer', () => gateway.lastChatAnswer()?.includes('what does the team see?'), 30_000);
      await scriptTurns('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: 'Read it.' }]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent a session for the team' });
      await waitFor(
        'the agent session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === 'a session for the team' && s.status === 'done'),
        45_000,
      );
      const billed = (await emulatorRequests()).slice(mark).filter((r) => r.status === 200 && typeof r.inputTokens === 'number');
      assert(billed.length >= 3, `the emulator billed ${billed.length} requests`);

      // Turned off, the exporter sends what it summed before it stops.
      await settings.update('telemetry.enabled', false, vscode.ConfigurationTarget.Global);
      const last = await waitFor('the collector to get the metrics', () => receiver.exports.at(-1), 20_000);
      assertEqual(last.headers.authorization, 'Bearer e2e-collector-token', 'the headers from secret storage');
      const resource = resourceOf(last.body);
      assertEqual(resource['user.id'], 'e2e-user', 'user.id');
      assertEqual(resource['service.version'], version, 'service.version');
      assert(typeof resource['host.id'] === 'string' && resource['host.id'] !== '', 'host.id is the machine id');
      const points = pointsOf(last.body);
      assertEqual(
        total(points, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'input' }),
        billed.reduce((sum, r) => sum + r.inputTokens!, 0),
        'input tokens against the emulator',
      );
      assert(total(points, 'gateway.client.requests', { 'gateway.surface': 'chat' }) >= 1, 'a chat request');
      assert(total(points, 'gateway.client.requests', { 'gateway.surface': 'agent' }) >= 2, 'the session’s requests');
      assertEqual(total(points, 'gateway.agent.sessions', { 'gateway.session.phase': 'started' }), 1, 'sessions started');
      assertEqual(total(points, 'gateway.agent.sessions', { 'gateway.session.phase': 'finished' }), 1, 'sessions finished');
      assertEqual(total(points, 'gateway.agent.tool_calls', { 'gen_ai.tool.name': 'read_file', 'gateway.tool.decision': 'approved' }), 1, 'read_file');
      const everything = JSON.stringify(receiver.exports.map((e) => e.body));
      for (const content of ['what does the team see', 'README', 'demo-key', 'e2e-collector-token'])
        assert(!everything.includes(content), `${content} was sent`);
    } finally {
      await settings.update('telemetry.enabled', undefined, vscode.ConfigurationTarget.Global);
      await settings.update('telemetry.endpoint', undefined, vscode.ConfigurationTarget.Global);
      await settings.update('telemetry.identity', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('gateway.clearCollectorHeaders');
      await receiver.close();
    }
  },
  { timeoutMs: 120_000 },
);
