import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The page's one audio element (mf-player/src/player/audioEngine.ts). */
export const AUDIO = '#lecteur-audio';

export interface AudioState {
  time: number;
  duration: number;
  paused: boolean;
  src: string;
}

export function audioState(page: Page): Promise<AudioState | null> {
  return page.evaluate((selector) => {
    const audio = document.querySelector<HTMLAudioElement>(selector);
    return audio === null
      ? null
      : { time: audio.currentTime, duration: audio.duration, paused: audio.paused, src: audio.currentSrc };
  }, AUDIO);
}

export async function audioTime(page: Page): Promise<number> {
  return (await audioState(page))?.time ?? -1;
}

/** Waits until the audio plays and its time has moved on by at least `seconds`. */
export async function expectTimeAdvancing(page: Page, seconds = 1): Promise<void> {
  await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThan(0);
  const start = await audioTime(page);
  await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThan(start + seconds);
}

interface Marked {
  markedAudio?: HTMLAudioElement | null;
  markedPauses?: number;
}

/** Remembers the page's audio element and counts its pauses, to prove later that the sound never stopped. */
export async function markAudio(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    const audio = document.querySelector<HTMLAudioElement>(selector);
    const marked = window as unknown as Marked;
    marked.markedAudio = audio;
    marked.markedPauses = 0;
    audio?.addEventListener('pause', () => {
      marked.markedPauses = (marked.markedPauses ?? 0) + 1;
    });
  }, AUDIO);
}

/** The audio element marked earlier is still the page's only one, never paused, and its time advances. */
export async function expectSameAudioPlaying(page: Page): Promise<void> {
  const kept = await page.evaluate((selector) => {
    const marked = window as unknown as Marked;
    const audio = document.querySelector<HTMLAudioElement>(selector);
    return {
      same: audio !== null && audio === marked.markedAudio,
      connected: audio?.isConnected ?? false,
      paused: audio?.paused ?? true,
      pauses: marked.markedPauses ?? -1,
      count: document.querySelectorAll('audio').length,
    };
  }, AUDIO);
  expect(kept).toEqual({ same: true, connected: true, paused: false, pauses: 0, count: 1 });
  await expectTimeAdvancing(page, 0.5);
}
