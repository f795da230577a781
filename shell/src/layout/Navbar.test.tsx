import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { radioSettings, SiteEnvironmentContext, sitePages } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { Navbar } from './Navbar';
import { setViewportWidth } from './testing';

function Harness() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  return (
    <>
      <Navbar menuOpen={open} onMenuChange={setOpen} />
      <p data-testid="location">{location.pathname}</p>
    </>
  );
}

const scrollTo = jest.fn();

beforeEach(() => {
  scrollTo.mockClear();
  window.scrollTo = scrollTo;
});

describe('Navbar on a phone (390 px)', () => {
  beforeEach(() => {
    setViewportWidth(390);
  });

  it('shows the logo and no back button on home', () => {
    renderWithProviders(<Harness />, { route: '/' });
    expect(screen.getByRole('link', { name: 'Collectif Garonne, accueil' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retour/ })).not.toBeInTheDocument();
  });

  it('opens the full-screen menu with the right-hand icon, with « Nous soutenir » only there', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />, { route: '/' });
    expect(screen.queryByRole('link', { name: /Nous soutenir/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByRole('link', { name: 'Programme' })).toHaveFocus();
    const support = within(menu).getByRole('link', { name: /Nous soutenir/ });
    expect(support).toHaveAttribute('target', '_blank');
    expect(support).toHaveAttribute('rel', 'noopener noreferrer');
    for (const name of ['Boutique', 'Photos', 'Écouter', 'Acheter']) {
      expect(within(menu).getByRole('link', { name: new RegExp(name) })).toHaveAttribute('target', '_blank');
    }
  });

  it('leads the menu’s « Nous soutenir » to the site’s page while HelloAsso takes payments on it', async () => {
    const user = userEvent.setup();
    const support = { page: '/soutenir', external: 'https://example.org/don' };
    renderWithProviders(
      <SiteEnvironmentContext value={{ radio: { ...radioSettings(), support }, pages: sitePages() }}>
        <Harness />
      </SiteEnvironmentContext>,
      { route: '/' },
    );
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }));
    const link = within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Nous soutenir' });
    expect(link).not.toHaveAttribute('target');
    await user.click(link);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/soutenir');
  });

  it('closes the menu on Escape and gives focus back to the toggle', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />, { route: '/label' });
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ouvrir le menu' })).toHaveFocus();
  });

  it('keeps focus inside the open menu', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />, { route: '/' });
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }));
    const support = screen.getByRole('link', { name: /Nous soutenir/ });
    support.focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Fermer le menu' })).toHaveFocus();
  });

  it('closes the menu, navigates and scrolls to the top when a link is chosen', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />, { route: '/' });
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Label' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/label');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('goes back to the residences list from a residence, and home from elsewhere', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />, { route: '/residences/axonberg' });
    await user.click(screen.getByRole('button', { name: 'Retour aux résidences' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/residences$/);
    await user.click(screen.getByRole('button', { name: "Retour à l'accueil" }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(screen.getByRole('link', { name: 'Collectif Garonne, accueil' })).toBeInTheDocument();
  });

  it('hides when scrolling down past 30 px and comes back on scrolling up', () => {
    renderWithProviders(<Harness />, { route: '/' });
    const header = screen.getByRole('banner');
    const scrollPage = (y: number) => {
      act(() => {
        Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
        fireEvent.scroll(window);
      });
    };
    scrollPage(20);
    expect(header).not.toHaveClass('navbar--hidden');
    scrollPage(80);
    expect(header).toHaveClass('navbar--hidden');
    scrollPage(60);
    expect(header).not.toHaveClass('navbar--hidden');
    scrollPage(200);
    expect(header).toHaveClass('navbar--hidden');
    scrollPage(0);
    expect(header).not.toHaveClass('navbar--hidden');
  });
});

describe('Navbar on a desktop (1280 px)', () => {
  beforeEach(() => {
    setViewportWidth(1280);
  });

  // Both the pill menu and the toggle are in the markup (the server cannot know the width); the
  // style sheet shows one of them, which e2e/tests/shell.spec.ts checks in Chromium.
  it('shows the pill menu with the active link, and no menu to open', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />, { route: '/label' });
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(within(nav).getByRole('link', { name: 'Label' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('link', { name: /Nous soutenir/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
