import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { returnQuery } from '../support/returnQuery';
import SupportReturnPage from './SupportReturnPage';

// The page HelloAsso sends a visitor back to, against a fake /api on loopback (docs/support.md,
// « The page »): it believes the site's reading of the payment, never the query.

let api: FakeServer;
let payment: { status: number; body: unknown };

beforeEach(async () => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  payment = { status: 200, body: { state: 'paid', kind: 'don', amount: 2000 } };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/support/retour': (request, response) => json(payment.body, payment.status)(request, response),
      '/api/content/residences': json([
        { id: 'axonberg', artist: 'Axonberg', show: 'Synapses', description: 'Techno.', styles: [] },
      ]),
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

const RETURN = '/soutenir/merci?checkoutIntentId=123&code=succeeded&orderId=456';

describe('/soutenir/merci', () => {
  it('says « Merci ! » once the site has read the payment back, and puts the focus on it', async () => {
    renderWithProviders(<SupportReturnPage />, { route: RETURN });
    expect(screen.getByRole('status')).toHaveTextContent('Vérification du paiement auprès de HelloAsso');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Merci !' });
    // Focused by an effect, which may run just after the heading is in the document.
    await waitFor(() => {
      expect(heading).toHaveFocus();
    });
    expect(screen.getByText('Votre don de 20 € est bien reçu.')).toBeInTheDocument();
    // HelloAsso's query passed on as it came, and nothing else.
    const asked = api.requests.find((request) => request.path === '/api/support/retour');
    expect(Object.fromEntries(new URL(asked?.url ?? '', api.origin).searchParams)).toEqual({
      checkoutIntentId: '123',
      code: 'succeeded',
      orderId: '456',
    });
  });

  it('names the residence a gift was for', async () => {
    payment = { status: 200, body: { state: 'paid', kind: 'don', amount: 1250, residence: 'axonberg' } };
    renderWithProviders(<SupportReturnPage />, { route: RETURN });
    expect(await screen.findByText('Votre don de 12,50 € est bien reçu, au nom de Axonberg.')).toBeInTheDocument();
  });

  it('welcomes a member', async () => {
    payment = { status: 200, body: { state: 'paid', kind: 'adhesion' } };
    renderWithProviders(<SupportReturnPage />, { route: RETURN });
    expect(await screen.findByText(/Votre adhésion est enregistrée/)).toBeInTheDocument();
  });

  it('says a refused payment in French, even when the query claims success, and offers to try again', async () => {
    payment = { status: 200, body: { state: 'refused', kind: 'don', residence: 'axonberg' } };
    renderWithProviders(<SupportReturnPage />, { route: RETURN });
    const refused = await screen.findByRole('heading', { level: 1, name: 'Paiement refusé' });
    await waitFor(() => {
      expect(refused).toHaveFocus();
    });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Le paiement de votre don a été refusé : rien n’a été prélevé.',
    );
    expect(screen.getByRole('link', { name: 'Réessayer' })).toHaveAttribute('href', '/soutenir?residence=axonberg');
    expect(screen.queryByText('Merci !')).not.toBeInTheDocument();
  });

  it('says an unfinished payment', async () => {
    payment = { status: 200, body: { state: 'unfinished', kind: 'adhesion' } };
    renderWithProviders(<SupportReturnPage />, { route: '/soutenir/merci?checkoutIntentId=123&error=abandoned' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Paiement non terminé' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Réessayer' })).toHaveAttribute('href', '/soutenir');
  });

  it('says in French when the payment cannot be checked (garbage), and checks again on request', async () => {
    payment = { status: 200, body: { state: 'payé', kind: 'don' } };
    renderWithProviders(<SupportReturnPage />, { route: RETURN });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Le paiement ne peut pas être vérifié auprès de HelloAsso',
    );
    expect(screen.queryByText('Merci !')).not.toBeInTheDocument();
    payment = { status: 200, body: { state: 'paid', kind: 'don' } };
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Merci !' })).toBeInTheDocument();
  });
});

it('says a payment the site does not know, without offering to check again', async () => {
  payment = { status: 404, body: { error: 'not_found', message: 'Ce paiement est inconnu de HelloAsso.' } };
  renderWithProviders(<SupportReturnPage />, { route: '/soutenir/merci?checkoutIntentId=999999&code=succeeded' });
  expect(await screen.findByRole('alert')).toHaveTextContent('Ce paiement est inconnu de HelloAsso');
  expect(screen.queryByRole('button', { name: 'Réessayer' })).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Nous soutenir' })).toHaveAttribute('href', '/soutenir');
  expect(screen.queryByText('Merci !')).not.toBeInTheDocument();
});

describe('HelloAsso’s query, passed on', () => {
  it('keeps its four names only, each bounded', () => {
    const query = new URLSearchParams({
      checkoutIntentId: '123',
      code: 'succeeded',
      orderId: 'x'.repeat(201),
      error: '',
      residence: 'axonberg',
      state: 'paid',
    });
    expect(returnQuery(query)).toEqual({ checkoutIntentId: '123', code: 'succeeded' });
  });
});
