import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test-utils';
import { Card, cardDate } from './Card';
import type * as CardModuleType from './Card';

type CardModule = typeof CardModuleType;

const image = { src: '/assets/images/x.webp', width: 500, height: 500 };

describe('Card', () => {
  it('with a url, is one link that opens in a new tab and says so, its title a heading', () => {
    renderWithProviders(
      <Card image={image} title="Ruche Sonore EP" description="Axonberg" url="https://label.example.org/album/ruche" />,
    );
    const link = screen.getByRole('link', { name: 'Ruche Sonore EP Axonberg (nouvel onglet)' });
    expect(link).toHaveAttribute('href', 'https://label.example.org/album/ruche');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('heading', { level: 3, name: 'Ruche Sonore EP' })).toBeInTheDocument();
  });

  it('with `to`, is a link to a page of the site, with the heading level asked for', () => {
    renderWithProviders(
      <Card image={image} title="Axonberg" description="Nuits de basse" headingLevel={2} to="/residences/axonberg" />,
    );
    expect(screen.getByRole('link', { name: 'Axonberg Nuits de basse' })).toHaveAttribute(
      'href',
      '/residences/axonberg',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Axonberg' })).toBeInTheDocument();
  });

  it('with onClick, is a button (no heading inside) that emits its click, named by its action', async () => {
    const clicked = jest.fn();
    renderWithProviders(
      <Card
        image={image}
        title="Orage Mécanique"
        description="Avis de Tempête #4"
        actionLabel="Écouter : "
        onClick={clicked}
      />,
    );
    const button = screen.getByRole('button', { name: 'Écouter : Orage Mécanique Avis de Tempête #4' });
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    await userEvent.click(button);
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('with onClick and titleTo, plays on a click and leads to its page from its title, never a link in a button', async () => {
    const clicked = jest.fn();
    const { container } = renderWithProviders(
      <Card
        image={image}
        title="Orage Mécanique"
        description="Avis de Tempête #4"
        actionLabel="Écouter : "
        titleTo="/emissions/orage-mecanique-4"
        note="Reprendre à 23:14"
        onClick={clicked}
      />,
    );
    const link = screen.getByRole('link', { name: 'Orage Mécanique' });
    expect(link).toHaveAttribute('href', '/emissions/orage-mecanique-4');
    expect(screen.getByRole('heading', { level: 3, name: 'Orage Mécanique' })).toContainElement(link);
    await userEvent.click(screen.getByRole('button', { name: 'Écouter : Orage Mécanique (Reprendre à 23:14)' }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Reprendre à 23:14')).toBeInTheDocument();
    expect(container.querySelector('button a, a button')).toBeNull();
  });

  it('fetches its picture first and at once when it is the page’s largest paint, lazily otherwise', () => {
    const { container, rerender } = renderWithProviders(
      <Card image={{ ...image, priority: true }} title="Première" to="/label" />,
    );
    expect(container.querySelector('img')).toHaveAttribute('fetchpriority', 'high');
    expect(container.querySelector('img')).toHaveAttribute('loading', 'eager');
    // The rest of the first row: at once, but after the largest paint.
    rerender(<Card image={{ ...image, eager: true }} title="Deuxième" to="/label" />);
    expect(container.querySelector('img')).toHaveAttribute('fetchpriority', 'low');
    expect(container.querySelector('img')).toHaveAttribute('loading', 'eager');
    rerender(<Card image={image} title="Autre" to="/label" />);
    expect(container.querySelector('img')).toHaveAttribute('fetchpriority', 'low');
    expect(container.querySelector('img')).toHaveAttribute('loading', 'lazy');
  });

  it('shows its date in French, Paris time, as a <time> with the original value', () => {
    renderWithProviders(<Card image={image} title="T" date="2026-11-21T23:30:00Z" onClick={() => undefined} />);
    // 23:30 UTC is already the 22nd in Paris.
    expect(screen.getByText('22 nov. 2026')).toHaveAttribute('datetime', '2026-11-21T23:30:00Z');
  });

  it('writes its dates without `Intl` (whose first object starts ICU on the page), except outside Paris’s rule’s years', () => {
    const made = jest.spyOn(Intl, 'DateTimeFormat');
    try {
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const fresh = require('./Card') as CardModule;
        expect(fresh.cardDate('2026-11-04T12:00:00Z')).toBe('4 nov. 2026');
        expect(fresh.cardDate('2026-12-24T12:00:00Z')).toBe('24 déc. 2026');
        // Summer time: 22:30 UTC is already the next day in Paris.
        expect(fresh.cardDate('2026-07-31T22:30:00Z')).toBe('1 août 2026');
        expect(made).not.toHaveBeenCalled();
        // Before the European rule (1996), Intl writes it, with one format for all.
        expect(fresh.cardDate('1990-02-03T12:00:00Z')).toBe('3 févr. 1990');
        expect(fresh.cardDate('1991-02-03T12:00:00Z')).toBe('3 févr. 1991');
        expect(made).toHaveBeenCalledTimes(1);
      });
    } finally {
      made.mockRestore();
    }
  });

  it('shows no date for a missing or unreadable one', () => {
    expect(cardDate(null)).toBeNull();
    expect(cardDate('pas une date')).toBeNull();
    renderWithProviders(<Card image={image} title="T" date="pas une date" onClick={() => undefined} />);
    expect(document.querySelector('time')).toBeNull();
  });

  it('falls back to the given picture when its own is empty or fails to load', () => {
    const { unmount } = renderWithProviders(
      <Card image={{ ...image, src: ' ', fallback: '/cover.webp' }} title="T" onClick={() => undefined} />,
    );
    expect(screen.getByRole('presentation')).toHaveAttribute('src', '/cover.webp');
    unmount();
    renderWithProviders(<Card image={{ ...image, fallback: '/cover.webp' }} title="T" onClick={() => undefined} />);
    const picture = screen.getByRole('presentation');
    expect(picture).toHaveAttribute('src', image.src);
    fireEvent.error(picture);
    expect(picture).toHaveAttribute('src', '/cover.webp');
  });

  it('loads lazily unless told the card is in the first row', () => {
    const { unmount } = renderWithProviders(<Card image={image} title="T" onClick={() => undefined} />);
    expect(screen.getByRole('presentation')).toHaveAttribute('loading', 'lazy');
    unmount();
    renderWithProviders(<Card image={{ ...image, eager: true }} title="T" onClick={() => undefined} />);
    expect(screen.getByRole('presentation')).toHaveAttribute('loading', 'eager');
  });
});
