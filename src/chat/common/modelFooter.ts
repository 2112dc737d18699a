/**
 * The line after an @gateway answer that names the model which wrote it: the Chat
 * view's picker can change between requests, so each answer says which one it was.
 * Kept in the result's notes so the history sent back to the model leaves it out.
 */
export function modelFooter(model: string): string {
  // A model id is the Gateway's text: no backtick may end the code span early.
  return `\n\n_Answered by \`${model.replace(/[`\r\n]/g, '')}\`_\n`;
}
