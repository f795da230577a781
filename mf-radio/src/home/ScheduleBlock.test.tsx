import { render, screen } from '@testing-library/react';
import { siteConfig } from '@collectif/shared';
import { calendarEmbedUrl, ScheduleBlock } from './ScheduleBlock';

describe('ScheduleBlock', () => {
  it('embeds the agenda of both calendars, without controls, in Paris time, at 800×600, lazily', () => {
    render(<ScheduleBlock />);
    expect(screen.getByRole('heading', { name: 'Radio Schedule' })).toBeInTheDocument();
    const frame = screen.getByTitle('Programme de la radio (agenda)');
    expect(frame).toHaveAttribute('width', '800');
    expect(frame).toHaveAttribute('height', '600');
    expect(frame).toHaveAttribute('loading', 'lazy');
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
    expect(screen.getByRole('link', { name: /Ouvrir le programme/ })).toHaveAttribute(
      'href',
      frame.getAttribute('src'),
    );
  });

  it('takes one src per calendar id', () => {
    expect(new URL(calendarEmbedUrl(['a@example.org'])).searchParams.getAll('src')).toEqual(['a@example.org']);
  });
});
