/** "Gateway: Select Chat Model": a QuickPick of the key's models, the current one marked, with a refresh button. */
import * as vscode from 'vscode';
import type { ModelInfo } from '../../gateway/common';
import type { ModelCatalog } from './modelCatalog';
import type { ModelRole } from '../common/modelChoice';
import type { ModelSelection } from './modelSelection';
import type { ErrorPresenter } from '../../gateway/vscode';

interface ModelItem extends vscode.QuickPickItem {
  model: string;
}

const REFRESH: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Refresh the model list' };

export class ModelPicker {
  constructor(
    private readonly catalog: ModelCatalog,
    private readonly selection: ModelSelection,
    private readonly errors: ErrorPresenter,
  ) {}

  /** Resolves with the chosen model id, or undefined when dismissed. */
  async pick(role: ModelRole): Promise<string | undefined> {
    const quickPick = vscode.window.createQuickPick<ModelItem>();
    quickPick.title = role === 'chat' ? 'Gateway: Select Chat Model' : 'Gateway: Select Agent Model';
    quickPick.placeholder = role === 'chat' ? 'Model for @gateway and inline edits' : 'Model for agent sessions';
    quickPick.buttons = [REFRESH];
    quickPick.matchOnDescription = true;
    const controller = new AbortController();
    const load = async (refresh: boolean) => {
      quickPick.busy = true;
      try {
        // The model in use is marked even when the setting is empty (the default one).
        const current = this.selection.configured(role) || (await this.selection.resolve(role, controller.signal));
        quickPick.items = this.items(await this.catalog.models(controller.signal, { refresh }), current);
        quickPick.activeItems = quickPick.items.filter((item) => item.picked);
      } catch (error) {
        quickPick.hide();
        void this.errors.show(error);
      } finally {
        quickPick.busy = false;
      }
    };
    const chosen = new Promise<string | undefined>((resolve) => {
      quickPick.onDidTriggerButton(() => void load(true));
      quickPick.onDidAccept(() => {
        resolve(quickPick.selectedItems[0]?.model);
        quickPick.hide();
      });
      quickPick.onDidHide(() => {
        controller.abort();
        resolve(undefined);
        quickPick.dispose();
      });
    });
    quickPick.show();
    await load(false);
    const model = await chosen;
    if (model) await this.selection.choose(role, model);
    // The same choice in the Chat view's picker (also when the setting already held it and so did not change).
    if (model && role === 'chat') await this.selection.showInChatView();
    return model;
  }

  private items(models: ModelInfo[], current: string): ModelItem[] {
    return models.map((model) => ({
      model: model.id,
      label: model.id,
      description: model.id === current ? '$(check) current' : undefined,
      detail: model.ownedBy ? `by ${model.ownedBy}` : undefined,
      picked: model.id === current,
    }));
  }
}
