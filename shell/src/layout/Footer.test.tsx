import { screen } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { Footer } from './Footer';

describe('Footer', () => {
  it('shows the legal numbers and the copyright of the current year', () => {
    renderWithProviders(<Footer />);
    expect(screen.getByText(/RNA W313000000/)).toBeInTheDocument();
    expect(screen.getByText(`© ${String(new Date().getFullYear())} Collectif Garonne`)).toBeInTheDocument();
  });

  it('offers contact and show proposals by e-mail, and support in a new tab', () => {
    renderWithProviders(<Footer year={2030} />);
    expect(screen.getByText('© 2030 Collectif Garonne')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Nous contacter' })).toHaveAttribute('href', 'mailto:contact@example.org');
    expect(screen.getByRole('link', { name: 'Proposer une émission' })).toHaveAttribute(
      'href',
      'mailto:emissions@example.org',
    );
    const support = screen.getByRole('link', { name: /Nous soutenir/ });
    expect(support).toHaveAttribute('target', '_blank');
  });

  it('links to the four networks, each in a new tab', () => {
    renderWithProviders(<Footer />);
    for (const name of ['Instagram', 'SoundCloud', 'Bandcamp', 'Tous nos liens']) {
      const link = screen.getByRole('link', { name: `${name} (nouvel onglet)` });
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });
});
