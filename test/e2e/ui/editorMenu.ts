// Issue 27, item 12: the editor's context menu as a person sees it: the extension's two commands sit
// under one "Gateway" submenu ("Edit Selection…", "Explain Selection"), told apart from VS Code's own.
import type { Scenario } from './harness';
import { quickOpen } from './agentActions';

const EDITOR_LINES = '.part.editor .editor-group-container.active .editor-container .monaco-editor .view-lines';
const MENU = '.context-view .monaco-menu';
const menuItem = (label: string) => `${MENU} .action-item:has(.action-label:text-is("${label}"))`;

export const editorMenuScenario: Scenario = {
  id: 'i27-editor-menu',
  title: 'the editor context menu: Edit Selection… and Explain Selection under a "Gateway" submenu',
  async run(ctx, s) {
    await s.step('gateway-submenu', 'src/hello.ts, all selected, right-click, "Gateway": its submenu lists Edit Selection… and Explain Selection', async () => {
      await quickOpen(ctx, 'hello.ts', 'hello.ts');
      await ctx.page.locator(EDITOR_LINES).first().click({ timeout: 30_000 });
      await ctx.page.keyboard.press('Control+A');
      await ctx.page.locator(EDITOR_LINES).first().click({ button: 'right', timeout: 10_000 });
      await ctx.page.locator(menuItem('Gateway')).first().hover({ timeout: 10_000 });
      for (const label of ['Edit Selection…', 'Explain Selection'])
        await ctx.page.locator(menuItem(label)).first().waitFor({ state: 'visible', timeout: 10_000 });
      const labels = await ctx.page.locator(`${MENU} .action-label`).allInnerTexts();
      s.check(!labels.some((label) => /^Gateway: /.test(label)), `no item repeats the "Gateway:" prefix inside the menu (${JSON.stringify(labels)})`);
      await s.crop('menu', MENU);
    });
    await ctx.page.keyboard.press('Escape');
    await ctx.page.keyboard.press('Escape');
    // An editor left open with a selection is attached to the next chat question (and the run that followed
    // this scenario lost its chat): the next scenario starts without it.
    await ctx.wb.runCommand('View: Close All Editors');
  },
};
