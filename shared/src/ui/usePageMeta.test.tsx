import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import * as shared from '../index';

/** A page component as a part built before « One head » wrote it. */
function OldPage() {
  // What an older part calls, on purpose: the deprecated hook must keep answering it.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  shared.usePageMeta('Ancien titre · Résidences', 'Ancienne description');
  return <h1>Page d’une partie plus ancienne</h1>;
}

describe('a part built before « One head », deployed beside a newer shell', () => {
  it('still renders on the server: the shared library answers its usePageMeta', () => {
    // Without it, the server rendered every page in the browser (docs/parts.md, « The contract's versions »).
    expect(renderToString(<OldPage />)).toContain('Page d’une partie plus ancienne');
  });

  it('still renders in the browser, and its usePageMeta leaves the head to the shell', () => {
    document.title = 'Titre de la page';
    document.head.insertAdjacentHTML('beforeend', '<meta name="description" content="Description de la page">');
    const head = document.head.innerHTML;
    const { rerender } = render(<OldPage />);
    rerender(<OldPage />);
    expect(screen.getByRole('heading', { name: 'Page d’une partie plus ancienne' })).toBeInTheDocument();
    expect(document.title).toBe('Titre de la page');
    expect(document.head.innerHTML).toBe(head);
  });
});
