import { act, fireEvent, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { NOT_COUNTED_KEY, notCounted } from '@collectif/shared/figures';
import Privacy from './Privacy';

// « Confidentialité et mesure d’audience » on About (docs/figures.md, « In the browser »).

beforeEach(() => {
  window.localStorage.clear();
});

it('says what is counted and for how long, and keeps « Ne pas être compté » on the device, announced', () => {
  render(<Privacy />);
  const section = screen.getByRole('region', { name: 'Confidentialité et mesure d’audience' });
  expect(section).toHaveTextContent('aucun cookie, aucune adresse conservée');
  expect(section).toHaveTextContent('25 mois au plus');
  expect(section).toHaveTextContent('le sel de la veille est effacé partout');
  const choice = screen.getByRole('checkbox', { name: 'Ne pas être compté' });
  expect(choice).not.toBeChecked();
  expect(choice).toHaveAccessibleDescription('Ce choix est gardé dans ce navigateur, sur cet appareil.');

  fireEvent.click(choice);
  expect(choice).toBeChecked();
  expect(notCounted()).toBe(true);
  expect(screen.getByRole('status')).toHaveTextContent(
    'Ce navigateur n’est plus compté : le lecteur n’envoie plus rien.',
  );

  fireEvent.click(choice);
  expect(choice).not.toBeChecked();
  expect(window.localStorage.getItem(NOT_COUNTED_KEY)).toBeNull();
  expect(screen.getByRole('status')).toHaveTextContent('Ce navigateur est de nouveau compté, anonymement.');
});

it('reads a stored value it did not write as no choice', () => {
  window.localStorage.setItem(NOT_COUNTED_KEY, '<img src=x onerror=alert(1)>');
  render(<Privacy />);
  expect(screen.getByRole('checkbox', { name: 'Ne pas être compté' })).not.toBeChecked();
});

it('says so when the browser refuses to keep the choice, and changes nothing', () => {
  jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('quota', 'QuotaExceededError');
  });
  render(<Privacy />);
  fireEvent.click(screen.getByRole('checkbox', { name: 'Ne pas être compté' }));
  expect(screen.getByRole('status')).toHaveTextContent('Ce navigateur ne garde pas ce choix');
  expect(screen.getByRole('checkbox', { name: 'Ne pas être compté' })).not.toBeChecked();
  jest.restoreAllMocks();
});

it('is in the server’s page, unchecked, and shows the device’s choice once hydrated', async () => {
  window.localStorage.setItem(NOT_COUNTED_KEY, 'oui');
  const html = renderToString(<Privacy />);
  expect(html).toContain('Confidentialité et mesure d’audience');
  expect(html).not.toContain('checked');
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  await act(async () => {
    hydrateRoot(container, <Privacy />);
    await Promise.resolve();
  });
  expect(screen.getByRole('checkbox', { name: 'Ne pas être compté' })).toBeChecked();
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
  container.remove();
});

it('says how long the proposals and demos are kept, and that the proposer deletes them at any time', () => {
  render(<Privacy />);
  expect(
    screen.getByText(/Les propositions d’émission et les démos envoyées par le site .* gardées douze mois au plus/),
  ).toHaveTextContent('le lien reçu par courriel les efface à tout moment.');
});
