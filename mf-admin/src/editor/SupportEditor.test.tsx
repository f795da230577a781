import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { readGoal, SupportEditor } from './SupportEditor';

// The admins' « Nous soutenir » settings (the kind `support`) against a fake /api on loopback.

let api: FakeServer;
let saved: { status: number; body: unknown };
let current: unknown;

beforeEach(async () => {
  current = { helloasso: true };
  saved = { status: 200, body: { version: { id: 'v2', savedAt: '2026-11-26T20:00:00.000Z' } } };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' },
    routes: {
      '/api/content/support/history': json({ current: 'v1', versions: [] }),
      '/api/content/support/versions/v1': (request, response) => {
        json({ id: 'v1', by: 'dépôt', savedAt: '2026-11-25T10:00:00.000Z', data: current })(request, response);
      },
      '/api/content/support': (request, response) => json(saved.body, saved.status)(request, response),
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const saves = () =>
  api.requests
    .filter((request) => request.method === 'PUT' && request.path === '/api/content/support')
    .map((request) => JSON.parse(request.body) as unknown);

describe('« Nous soutenir » in the editor', () => {
  it('lets an admin set the year’s membership goal', async () => {
    renderWithProviders(<SupportEditor />);
    const goal = await screen.findByLabelText('Objectif d’adhérents de l’année');
    expect(screen.getByLabelText('Adhésions et dons avec HelloAsso sur le site')).toBeChecked();
    await userEvent.type(goal, '200');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByRole('status')).toHaveTextContent('la page Nous soutenir en tient compte.');
    expect(saves()).toEqual([{ data: { helloasso: true, goal: 200 }, basedOn: 'v1' }]);
  });

  it('turns HelloAsso off and takes the goal away', async () => {
    current = { helloasso: true, goal: 150 };
    renderWithProviders(<SupportEditor />);
    const goal = await screen.findByLabelText('Objectif d’adhérents de l’année');
    expect(goal).toHaveValue('150');
    await userEvent.click(screen.getByLabelText('Adhésions et dons avec HelloAsso sur le site'));
    await userEvent.clear(goal);
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    await screen.findByRole('status');
    expect(saves()).toEqual([{ data: { helloasso: false }, basedOn: 'v1' }]);
  });

  it('refuses a goal that is not a whole number of members, beside the field, and publishes nothing', async () => {
    renderWithProviders(<SupportEditor />);
    const goal = await screen.findByLabelText('Objectif d’adhérents de l’année');
    await userEvent.type(goal, '12,5');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(goal).toHaveAttribute('aria-invalid', 'true');
    expect(goal).toHaveAccessibleDescription(/L’objectif est un nombre entier d’adhérents/);
    expect(goal).toHaveFocus();
    expect(saves()).toEqual([]);
  });

  it('shows the site’s refusal (not an admin) in its words', async () => {
    saved = {
      status: 403,
      body: { error: 'forbidden', message: 'Seul un compte d’administration modifie ces réglages.' },
    };
    renderWithProviders(<SupportEditor />);
    await screen.findByLabelText('Objectif d’adhérents de l’année');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Seul un compte d’administration modifie ces réglages.');
  });

  it('opens a hostile saved version as HelloAsso on and no goal', async () => {
    current = { helloasso: 'non', goal: 'mille' };
    renderWithProviders(<SupportEditor />);
    expect(await screen.findByLabelText('Objectif d’adhérents de l’année')).toHaveValue('');
    expect(screen.getByLabelText('Adhésions et dons avec HelloAsso sur le site')).toBeChecked();
  });
});

describe('a goal typed', () => {
  it('is a whole number of members within bounds, or none', () => {
    expect(readGoal(' 200 ')).toBe(200);
    expect(readGoal('')).toBeUndefined();
    expect(readGoal('0')).toEqual({ error: expect.stringContaining('compris entre 1 et') as string });
    expect(readGoal('100001')).toEqual({ error: expect.stringContaining('compris entre 1 et') as string });
    expect(readGoal('-5')).toEqual({ error: 'L’objectif est un nombre entier d’adhérents, par exemple 200.' });
  });
});
