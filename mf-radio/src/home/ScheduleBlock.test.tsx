import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { siteConfig } from '@collectif/shared';
import { calendarEmbedUrl, ScheduleBlock } from './ScheduleBlock';

describe('ScheduleBlock', () => {
  it('asks before loading anything from the calendar provider, and offers the agenda as a link', () => {
    render(<ScheduleBlock />);
    expect(screen.getByRole('heading', { name: 'Radio Schedule' })).toBeInTheDocument();
    const facade = screen.getByRole('group', { name: 'Programme de la radio' });
    expect(facade).toHaveTextContent('Fourni par Google Agenda');
    expect(screen.queryByTitle('Programme de la radio (agenda)')).not.toBeInTheDocument();
    const direct = screen.getByRole('link', { name: /Ouvrir l'agenda/ });
    expect(direct).toHaveAttribute('href', calendarEmbedUrl());
    expect(direct).toHaveAttribute('target', '_blank');
  });

  it('on « Afficher l’agenda », embeds both calendars, without controls, in Paris time, at 800×600', async () => {
    render(<ScheduleBlock />);
    await userEvent.click(screen.getByRole('button', { name: "Afficher l'agenda" }));
    const frame = screen.getByTitle('Programme de la radio (agenda)');
    expect(frame).toHaveAttribute('width', '800');
    expect(frame).toHaveAttribute('height', '600');
    const url = new URL(frame.getAttribute('src')!);
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/embed');
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'src'))).toEqual({
      mode: 'AGENDA',
      showTitle: '0',
      showNav: '0',
      showPrint: '0',
      showTabs: '0',
      showCalendars: '0',
      showTz: '0',
      ctz: 'Europe/Paris',
    });
    expect(url.searchParams.getAll('src')).toEqual(siteConfig.radio.calendarIds);
    // The placeholder is gone; the direct link stays under the frame.
    expect(screen.queryByRole('button', { name: "Afficher l'agenda" })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Ouvrir l'agenda/ })).toHaveAttribute('href', frame.getAttribute('src'));
  });

  it('takes one src per calendar id', () => {
    expect(new URL(calendarEmbedUrl(['a@example.org'])).searchParams.getAll('src')).toEqual(['a@example.org']);
  });
});
