import { screen } from '@testing-library/react';
import { radioSettings, SiteEnvironmentContext, sitePages, type RadioSettings } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { Footer } from './Footer';

/** The footer with the run-time settings' support links (docs/support.md, « The links »). */
const withSupport = (support: RadioSettings['support']) => (
  <SiteEnvironmentContext value={{ radio: { ...radioSettings(), support }, pages: sitePages() }}>
    <Footer />
  </SiteEnvironmentContext>
);

describe('Footer', () => {
  it('shows the legal numbers and the copyright of the current year', () => {
    renderWithProviders(<Footer />);
    expect(screen.getByText(/RNA W313000000/)).toBeInTheDocument();
    expect(screen.getByText(`© ${String(new Date().getFullYear())} Collectif Garonne`)).toBeInTheDocument();
  });

  it('offers contact by e-mail, and leads « Proposer une émission » to the radio’s page', () => {
    renderWithProviders(<Footer year={2030} />);
    expect(screen.getByText('© 2030 Collectif Garonne')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Nous contacter' })).toHaveAttribute('href', 'mailto:contact@example.org');
    expect(screen.getByRole('link', { name: 'Proposer une émission' })).toHaveAttribute(
      'href',
      '/proposer-une-emission',
    );
  });

  it('offers the shows’ address while the radio declares no proposal page', () => {
    renderWithProviders(
      <SiteEnvironmentContext
        value={{ radio: radioSettings(), pages: sitePages().filter((page) => page.module !== 'ProposeShowPage') }}
      >
        <Footer />
      </SiteEnvironmentContext>,
    );
    expect(screen.getByRole('link', { name: 'Proposer une émission' })).toHaveAttribute(
      'href',
      'mailto:emissions@example.org',
    );
  });

  it('leads « Nous soutenir » to the site’s page while HelloAsso takes payments on it', () => {
    renderWithProviders(withSupport({ page: '/soutenir', external: 'https://example.org/don' }));
    const support = screen.getByRole('link', { name: 'Nous soutenir' });
    expect(support).toHaveAttribute('href', '/soutenir');
    expect(support).not.toHaveAttribute('target');
  });

  it('leads « Nous soutenir » to the external page, in a new tab, when an admin turned HelloAsso off', () => {
    renderWithProviders(withSupport({ page: '', external: 'https://example.org/don' }));
    const support = screen.getByRole('link', { name: 'Nous soutenir (nouvel onglet)' });
    expect(support).toHaveAttribute('href', 'https://example.org/don');
    expect(support).toHaveAttribute('target', '_blank');
    expect(support).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('keeps the external link of an older page that says nothing of the support page', () => {
    renderWithProviders(<Footer />);
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
