import { render, screen } from '@testing-library/react';
import * as shared from './index';

/** A description as a part built before « Safe HTML » showed it: sanitised on the window it read. */
function OldDescription() {
  // What an older part calls, on purpose: the deprecated hook must keep answering it.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const window = shared.useDocumentWindow();
  return <p>Fenêtre : {window.document.nodeName}</p>;
}

describe('a part built before « Safe HTML », deployed beside a newer shell', () => {
  it('still reads the page’s window in the browser', () => {
    render(<OldDescription />);
    expect(screen.getByText('Fenêtre : #document')).toBeInTheDocument();
  });
});
