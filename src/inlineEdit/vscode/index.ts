/** The inlineEdit feature's vscode layer as other features see it: import from here, not from its files. */
export { inlineEditController } from './inlineEditLoader';
export type { InlineEditController } from './inlineEditController';
export { PROPOSAL_SCHEME, ProposalDocuments } from './proposalDocuments';
