import { fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { residenceFeedPath } from '@collectif/shared/addresses';
import { Subscribe } from './Subscribe';

const FEED = `${window.location.origin}/residences/axonberg/feed.xml`;

function setClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('Subscribe', () => {
  it('offers the residence’s podcast feed under « S’abonner », as a link', () => {
    render(<Subscribe id="axonberg" />);
    const block = screen.getByRole('region', { name: "S'abonner" });
    const link = within(block).getByRole('link', { name: 'Flux RSS' });
    expect(link).toHaveAttribute('href', '/residences/axonberg/feed.xml');
    expect(link).toHaveAttribute('type', 'application/rss+xml');
    expect(within(block).getByRole('button', { name: 'Copier le lien du flux' })).toBeInTheDocument();
  });

  it('copies the absolute address and says so in French', async () => {
    const writeText = jest.fn(() => Promise.resolve());
    setClipboard(writeText);
    render(<Subscribe id="axonberg" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copier le lien du flux' }));
    expect(await screen.findByText(/^Lien copié/)).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(FEED);
  });

  it('shows the address in a field to copy by hand when the clipboard is refused', async () => {
    setClipboard(() => Promise.reject(new Error('refusé')));
    render(<Subscribe id="axonberg" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copier le lien du flux' }));
    const field = await screen.findByRole('textbox', { name: 'Lien du flux' });
    expect(field).toHaveValue(FEED);
    expect(field).toHaveAttribute('readonly');
    expect(screen.queryByText(/^Lien copié/)).not.toBeInTheDocument();
  });

  it('encodes the id in the address, and renders the same markup on the server', () => {
    expect(residenceFeedPath('a/b <c>')).toBe('/residences/a%2Fb%20%3Cc%3E/feed.xml');
    // No origin in the first render: the server's HTML and the browser's are the same.
    expect(renderToString(<Subscribe id="axonberg" />)).not.toContain(window.location.origin);
  });
});
