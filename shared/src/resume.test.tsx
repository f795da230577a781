import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { rememberedPosition, rememberPosition, RESUME_MAX_ENTRIES, resumeKey, useRememberedPosition } from './resume';

beforeEach(() => {
  localStorage.clear();
});

const episode = { url: 'https://a.example/1.mp3', duration: 7200 };

describe('where a listener stopped in a replay', () => {
  it('is remembered per replay, by its track when it has one', () => {
    expect(resumeKey({ url: 'u', trackUrn: 'soundcloud:tracks:1' })).toBe('soundcloud:tracks:1');
    rememberPosition(resumeKey(episode), 1394.6, 7200);
    expect(rememberedPosition(resumeKey(episode), 7200)).toBe(1394);
    expect(rememberedPosition('autre', 7200)).toBeNull();
  });

  it('is not kept in the first seconds, and is forgotten near the end (a tenth of a short replay)', () => {
    rememberPosition('a', 5, 7200);
    expect(rememberedPosition('a', 7200)).toBeNull();
    rememberPosition('a', 600, 7200);
    rememberPosition('a', 7180, 7200);
    expect(rememberedPosition('a', 7200)).toBeNull();
    rememberPosition('b', 50, 60);
    expect(rememberedPosition('b', 60)).toBe(50);
    rememberPosition('b', 55, 60);
    expect(rememberedPosition('b', 60)).toBeNull();
  });

  it(`keeps the ${String(RESUME_MAX_ENTRIES)} most recent replays, and survives a broken storage value`, () => {
    for (let i = 0; i <= RESUME_MAX_ENTRIES; i += 1) rememberPosition(`r${String(i)}`, 100, 7200);
    expect(Object.keys(JSON.parse(localStorage.getItem('collectif:reprise') ?? '{}') as object)).toHaveLength(
      RESUME_MAX_ENTRIES,
    );
    localStorage.setItem('collectif:reprise', '{pas du json');
    expect(rememberedPosition('r1')).toBeNull();
    rememberPosition('c', 100, 7200);
    expect(rememberedPosition('c')).toBe(100);
  });
});

function Resume() {
  const position = useRememberedPosition(episode);
  return <p>{position === null ? 'rien' : `reprise ${String(position)}`}</p>;
}

describe('useRememberedPosition', () => {
  it('renders nothing remembered on the server, then follows the storage in the browser', () => {
    rememberPosition(resumeKey(episode), 300, 7200);
    expect(renderToString(<Resume />)).toContain('rien');
    render(<Resume />);
    expect(screen.getByText('reprise 300')).toBeInTheDocument();
    act(() => {
      rememberPosition(resumeKey(episode), 420, 7200);
    });
    expect(screen.getByText('reprise 420')).toBeInTheDocument();
  });
});
