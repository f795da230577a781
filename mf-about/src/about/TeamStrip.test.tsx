import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TeamStrip } from './TeamStrip';

const members = ['Camille', 'Yanis', 'Léa'].map((name) => ({
  imagePath: `/assets/images/team/${name.toLowerCase()}.webp`,
  title: name,
  description: 'Bénévole',
}));

// jsdom has no layout and no element scrolling: the strip's scroll requests are recorded instead.
const scrollBy = jest.fn<undefined, [ScrollToOptions]>();
const scrollTo = jest.fn<undefined, [ScrollToOptions]>();

beforeAll(() => {
  Object.assign(HTMLElement.prototype, { scrollBy, scrollTo });
});

beforeEach(() => {
  scrollBy.mockClear();
  scrollTo.mockClear();
});

function renderStrip() {
  render(<TeamStrip members={members} label="Membres de l'équipe" previousLabel="Précédents" nextLabel="Suivants" />);
  return screen.getByRole('region', { name: "Membres de l'équipe" });
}

describe('TeamStrip', () => {
  it('is reached with Tab and scrolls with the arrow keys', async () => {
    const strip = renderStrip();

    await userEvent.tab();
    await userEvent.tab();
    await userEvent.tab();
    expect(strip).toHaveFocus();

    await userEvent.keyboard('{ArrowRight}');
    expect(scrollBy.mock.calls.at(-1)?.[0].left).toBeGreaterThan(0);
    await userEvent.keyboard('{ArrowLeft}');
    expect(scrollBy.mock.calls.at(-1)?.[0].left).toBeLessThan(0);
    await userEvent.keyboard('{Home}');
    expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ left: 0 }));
    await userEvent.keyboard('{End}');
    expect(scrollTo).toHaveBeenCalledTimes(2);
  });

  it('leaves other keys and shortcuts to the browser', () => {
    const strip = renderStrip();

    expect(fireEvent.keyDown(strip, { key: 'ArrowDown' })).toBe(true);
    expect(fireEvent.keyDown(strip, { key: 'ArrowRight', altKey: true })).toBe(true);
    expect(fireEvent.keyDown(strip, { key: 'ArrowRight' })).toBe(false);
    expect(scrollBy).toHaveBeenCalledTimes(1);
  });

  it('scrolls with the buttons too', async () => {
    renderStrip();

    await userEvent.click(screen.getByRole('button', { name: 'Suivants' }));
    expect(scrollBy.mock.calls.at(-1)?.[0].left).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Précédents' }));
    expect(scrollBy.mock.calls.at(-1)?.[0].left).toBeLessThan(0);
  });

  it('shows each member with photo, first name and roles', () => {
    renderStrip();

    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Camille', 'Yanis', 'Léa']);
    expect(screen.getAllByText('Bénévole')).toHaveLength(3);
  });
});
