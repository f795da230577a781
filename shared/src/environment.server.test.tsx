/**
 * @jest-environment node
 */
import { renderToString } from 'react-dom/server';
import * as shared from './index';

/** A description as a part built before « Safe HTML » showed it: sanitised on the window it read. */
function OldDescription() {
  // What an older part calls, on purpose: the deprecated hook must keep answering it.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const window = shared.useDocumentWindow();
  return <p>Fenêtre : {window.document.nodeName}</p>;
}

describe('a part built before « Safe HTML », rendered by a newer server', () => {
  it('throws where there is no window, so that its area renders in the browser', () => {
    expect(() => renderToString(<OldDescription />)).toThrow(/aucune fenêtre/);
  });
});
