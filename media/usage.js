/* global acquireVsCodeApi, document */
// The usage view's only script (loaded with the page's nonce): it sends the two
// actions to the extension; the extension checks them, the page is not trusted.
(function () {
  const vscode = acquireVsCodeApi();
  document.getElementById('export')?.addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));
  for (const link of document.querySelectorAll('a.session')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      vscode.postMessage({ type: 'openSession', sessionId: link.getAttribute('data-session') });
    });
  }
})();
