import { render, screen } from '@testing-library/react';
import * as shared from '../index';

/** A page component as a part built before « One head » wrote it. */
function OldPage() {
  // What an older part calls, on purpose: the deprecated hook must keep answering it.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  shared.usePageMeta('Ancien titre · Résidences', 'Ancienne description');
  return <h1>Page d’une partie plus ancienne</h1>;
}

describe('a part built before « One head », deployed beside a newer shell', () => {
  it('still renders: the shared library answers its usePageMeta, which leaves the head to the shell', () => {
    document.title = 'Titre de la page';
    render(<OldPage />);
    expect(screen.getByRole('heading', { name: 'Page d’une partie plus ancienne' })).toBeInTheDocument();
    expect(document.title).toBe('Titre de la page');
  });
});
