import { screen } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { Lineup } from './Lineup';

const LINEUP = [
  { name: 'Axonberg', residence: 'axonberg' },
  { name: 'Kalibre', residence: 'kalibre-mona-vex' },
  { name: 'DJ Invitée', residence: null },
];

describe('a line-up', () => {
  it('links each residence to its page, and says the others as written', () => {
    const { container } = renderWithProviders(<Lineup lineup={LINEUP} />);
    expect(container).toHaveTextContent('Axonberg, Kalibre et DJ Invitée');
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/residences/axonberg',
      '/residences/kalibre-mona-vex',
    ]);
  });

  it('on a residence’s own page, names it without a link to the page the visitor is on', () => {
    const { container } = renderWithProviders(<Lineup lineup={LINEUP} current="axonberg" />);
    expect(container).toHaveTextContent('Axonberg, Kalibre et DJ Invitée');
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Kalibre']);
  });
});
