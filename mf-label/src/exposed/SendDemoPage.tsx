import type { PageDefinition, PageRoute, RemoteContract } from '@collectif/shared';
import { proposalPageModule } from '@collectif/shared/proposals';

/*
 * /label/envoyer-une-demo (issue 73, docs/proposals.md « The pages »): the form, its « Merci ! » at
 * /merci and the proposer's deletion at /supprimer. The page and its form are a helper shared with
 * the radio's « Proposer une émission ».
 */

const { Page: SendDemoPage, page: definition } = proposalPageModule('demo');

export default SendDemoPage satisfies RemoteContract['label']['SendDemoPage'];

export const page: PageDefinition = definition;

/** Its addresses and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = [
  {
    path: 'label/envoyer-une-demo',
    title: 'Envoyer une démo',
    description: 'Envoyer une démo au label du collectif : le formulaire, et la réponse sous un mois.',
    area: 'La page Envoyer une démo',
    back: 'label',
  },
  {
    path: 'label/envoyer-une-demo/merci',
    title: 'Merci ! · Envoyer une démo',
    area: 'La page Envoyer une démo',
    back: 'label/envoyer-une-demo',
    noindex: true,
  },
  {
    path: 'label/envoyer-une-demo/supprimer',
    title: 'Retirer une démo',
    area: 'La page Envoyer une démo',
    back: 'label/envoyer-une-demo',
    noindex: true,
  },
];
