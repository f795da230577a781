// « Proposer une émission » and « Envoyer une démo » (docs/proposals.md, « The pages »): the page and
// its form, shared by the radio's and the label's modules. A helper: each of the two parts bundles it.
export { ProposalPage, proposalPage, proposalPageModule } from './ProposalPage';
export { ProposalForm } from './ProposalForm';
export { KINDS, NUMBER_PATTERN, type KindText } from './kinds';
export { proposalsApi, type ProposalKind, type ProposalChallenge, type ProposalDraft } from './api';
