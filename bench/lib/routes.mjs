// The pages every bench measures: each kind of page the site renders, once.
export const routes = [
  { name: 'accueil', path: '/' },
  { name: 'programme', path: '/programme' },
  { name: 'évènements', path: '/evenements' },
  { name: 'résidences', path: '/residences' },
  { name: 'une résidence', path: '/residences/axonberg' },
  { name: 'label', path: '/label' },
  { name: 'à propos', path: '/a-propos' },
  { name: 'émissions', path: '/emissions' },
  { name: 'une émission', path: '/emissions/axonberg-synapses-11' },
  // The demo's tracklists name this artist in two episodes (docs/artists.md).
  { name: 'un artiste', path: '/artistes/basic-channel' },
  { name: 'nous soutenir', path: '/soutenir' },
  // The proposal forms (docs/proposals.md, « The pages »).
  { name: 'proposer une émission', path: '/proposer-une-emission' },
  { name: 'envoyer une démo', path: '/label/envoyer-une-demo' },
];

export const routePaths = routes.map((route) => route.path);
